public import Foundation

/// Holds the configuration an app runs with and replaces it only with one that validates.
///
/// Its lifecycle is a sequence of generations: every successful replacement bumps
/// ``generation`` and is delivered to ``changes()`` subscribers; a rejected replacement
/// leaves the current configuration untouched and throws the validator's report.
public actor ConfigurationStore {
    /// The configuration in force.
    public private(set) var configuration: PWAConfiguration
    /// Starts at 0 and grows by one with each accepted replacement that changes the configuration.
    public private(set) var generation = 0
    /// The file ``reload()`` reads, when the store was created from one.
    public let source: URL?

    private var subscribers: [UUID: AsyncStream<PWAConfiguration>.Continuation] = [:]

    /// Creates a store holding an already-validated configuration.
    public init(configuration: PWAConfiguration, source: URL? = nil) {
        self.configuration = configuration
        self.source = source
    }

    /// Creates a store from a file or a directory holding `pwa-config.json`.
    public init(contentsOf url: URL) throws(ConfigurationError) {
        let file = try ConfigurationLoader.locate(url)
        self.init(configuration: try ConfigurationLoader.load(from: file), source: file)
    }

    /// Replaces the configuration with the one encoded in `data`, if it validates.
    @discardableResult
    public func replace(with data: Data) throws(ConfigurationError) -> ValidationReport {
        let (next, report) = try ConfigurationLoader.loadReporting(from: data)
        commit(next)
        return report
    }

    /// Replaces the configuration with `next`, if it validates.
    @discardableResult
    public func replace(with next: PWAConfiguration) throws(ConfigurationError) -> ValidationReport {
        let report = ConfigurationValidator().validate(next)
        guard report.isValid else {
            throw ConfigurationError(code: .invalid, message: "the new configuration is invalid", report: report)
        }
        commit(next)
        return report
    }

    /// Reads ``source`` again and replaces the configuration if the file validates.
    @discardableResult
    public func reload() throws(ConfigurationError) -> ValidationReport {
        guard let source else {
            throw ConfigurationError(code: .unreadable, message: "this store was not created from a file")
        }
        return try replace(with: ConfigurationLoader.readData(at: source))
    }

    /// A stream that yields the current configuration at once, then each accepted replacement;
    /// a consumer that falls behind receives only the newest one.
    public func changes() -> AsyncStream<PWAConfiguration> {
        let (stream, continuation) = AsyncStream.makeStream(
            of: PWAConfiguration.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        subscribers[id] = continuation
        continuation.yield(configuration)
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    private func commit(_ next: PWAConfiguration) {
        guard next != configuration else { return }
        configuration = next
        generation += 1
        for continuation in subscribers.values { continuation.yield(next) }
    }
}
