public import Foundation
public import PWAKitAPI
public import PWAKitCore
import PWAKitFiles
import Synchronization

/// The app's feature flags: an override (tests, debug builds) wins over the server's value, which
/// wins over the app's default. The server's answer is cached in a file, so the flags hold their
/// last known values offline and from the first instant of the next launch.
///
/// Read from any thread; ``refresh(using:appId:accessToken:)`` fetches `GET /v1/flags` (the same
/// percentage bucketing as releases) and replaces the remote values at once.
public final class FeatureFlagStore: Sendable {
    private struct State {
        var remote: [String: ScalarValue] = [:]
        var fetchedAt: Date?
        var overrides: [String: ScalarValue] = [:]
        var listeners: [UUID: AsyncStream<Void>.Continuation] = [:]
    }

    private struct Cache: Codable {
        var fetchedAt: Date
        var flags: [String: ScalarValue]
    }

    /// The app's defaults.
    public let defaults: [String: ScalarValue]
    /// Where the last answer is cached; `nil` keeps it in memory only.
    public let cacheFile: URL?
    private let state = Mutex(State())

    /// Creates a store with the app's `defaults`, reading the cached answer from `cacheFile` (a
    /// missing or unreadable cache leaves the defaults in force; it is only a cache).
    public init(defaults: [String: ScalarValue], cacheFile: URL? = nil, overrides: [String: ScalarValue] = [:]) {
        self.defaults = defaults
        self.cacheFile = cacheFile
        var initial = State(overrides: overrides)
        if let cacheFile, let data = try? DurableFile.contents(of: cacheFile.path),
            let cache = try? Self.decoder.decode(Cache.self, from: data)
        {
            initial.remote = cache.flags.filter { FlagRules.isKey($0.key) && FlagRules.problem(with: $0.value) == nil }
            initial.fetchedAt = cache.fetchedAt
        }
        state.withLock { $0 = initial }
    }

    // MARK: Reading

    /// A flag's value, from wherever it comes; `nil` when it has none.
    public func value(_ key: String) -> ScalarValue? { resolved(key)?.value }

    /// A flag's value and where it comes from.
    public func resolved(_ key: String) -> (value: ScalarValue, source: FlagSource)? {
        state.withLock { state in
            if let value = state.overrides[key] { return (value, .override) }
            if let value = state.remote[key] { return (value, .remote) }
            return defaults[key].map { ($0, .default) }
        }
    }

    /// A boolean flag; `fallback` when it is unset or not a boolean.
    public func bool(_ key: String, default fallback: Bool = false) -> Bool {
        if case .bool(let flag)? = value(key) { return flag }
        return fallback
    }

    /// A number flag; `fallback` when it is unset or not a number.
    public func number(_ key: String, default fallback: Double) -> Double {
        if case .number(let number)? = value(key) { return number }
        return fallback
    }

    /// A string flag; `fallback` when it is unset or not a string.
    public func string(_ key: String, default fallback: String) -> String {
        if case .string(let text)? = value(key) { return text }
        return fallback
    }

    /// Every flag that has a value, with its source.
    public var all: [String: (value: ScalarValue, source: FlagSource)] {
        let keys = state.withLock { Set($0.overrides.keys).union($0.remote.keys) }.union(defaults.keys)
        var result: [String: (value: ScalarValue, source: FlagSource)] = [:]
        for key in keys { result[key] = resolved(key) }
        return result
    }

    /// When the remote values were fetched (also from the cache); `nil` before the first answer.
    public var fetchedAt: Date? { state.withLock { $0.fetchedAt } }

    // MARK: Changing

    /// Overrides a flag for this process (a test, a debug menu); `nil` removes the override.
    public func override(_ key: String, with value: ScalarValue?) {
        state.withLock { $0.overrides[key] = value }
        notify()
    }

    /// Removes every override.
    public func clearOverrides() {
        state.withLock { $0.overrides = [:] }
        notify()
    }

    /// Replaces the remote values with a server's answer and caches it; values that break the
    /// flag rules are ignored.
    ///
    /// - Throws: the cache file's `FileSystemError` (the values are in force regardless).
    public func apply(remote flags: [String: ScalarValue], fetchedAt: Date = Date()) throws {
        let valid = flags.filter { FlagRules.isKey($0.key) && FlagRules.problem(with: $0.value) == nil }
        state.withLock { state in
            state.remote = valid
            state.fetchedAt = fetchedAt
        }
        notify()
        if let cacheFile {
            try DurableFile.replace(cacheFile.path, with: try Self.encoder.encode(Cache(fetchedAt: fetchedAt, flags: valid)))
        }
    }

    /// Fetches the flags for the signed-in user (and `appId`) and applies them.
    public func refresh(using client: APIClient, appId: String? = nil, accessToken: String) async throws {
        let answer = try await client.flags(appId: appId, accessToken: accessToken)
        try apply(remote: answer.flags)
    }

    /// A stream that yields whenever a value may have changed (an answer, an override).
    public func changes() -> AsyncStream<Void> {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        state.withLock { $0.listeners[id] = continuation }
        continuation.onTermination = { [weak self] _ in self?.state.withLock { _ = $0.listeners.removeValue(forKey: id) } }
        return stream
    }

    private func notify() {
        for listener in state.withLock({ Array($0.listeners.values) }) { listener.yield() }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }()
}

extension FeatureFlagStore {
    /// A store with the defaults the app's configuration declares (`flags` in `pwa-config.json`);
    /// values that are not a string, a number or a boolean are left out (the validator refuses them).
    public convenience init(configuration: PWAConfiguration, cacheFile: URL? = nil) {
        var defaults: [String: ScalarValue] = [:]
        for (key, value) in configuration.flags ?? [:] {
            switch value {
            case .string(let text): defaults[key] = .string(text)
            case .number(let number): defaults[key] = .number(number)
            case .bool(let flag): defaults[key] = .bool(flag)
            default: continue
            }
        }
        self.init(defaults: defaults, cacheFile: cacheFile)
    }
}
