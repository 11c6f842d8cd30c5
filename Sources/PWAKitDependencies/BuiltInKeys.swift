public import Foundation

/// The wall clock, as a value tests replace.
public struct DateGenerator: Sendable {
    /// The current date.
    public var now: Date { generate() }
    private let generate: @Sendable () -> Date

    /// A generator from a closure.
    public init(_ generate: @escaping @Sendable () -> Date) { self.generate = generate }

    /// The system clock.
    public static let system = DateGenerator { Date() }
    /// Always `date`.
    public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

/// A source of UUIDs, as a value tests replace.
public struct UUIDGenerator: Sendable {
    private let generate: @Sendable () -> UUID

    /// A generator from a closure.
    public init(_ generate: @escaping @Sendable () -> UUID) { self.generate = generate }

    /// A new UUID.
    public func callAsFunction() -> UUID { generate() }

    /// Random version-4 UUIDs.
    public static let random = UUIDGenerator { UUID() }
}

enum ContinuousClockKey: DependencyKey {
    static var liveValue: any Clock<Duration> { ContinuousClock() }
}

enum DateKey: DependencyKey {
    static var liveValue: DateGenerator { .system }
}

enum UUIDKey: DependencyKey {
    static var liveValue: UUIDGenerator { .random }
}

extension DependencyValues {
    /// The clock that waits and deadlines use (live: `ContinuousClock`; unimplemented in tests).
    public var clock: any Clock<Duration> {
        get { self[ContinuousClockKey.self] }
        set { self[ContinuousClockKey.self] = newValue }
    }

    /// The wall clock (live: the system's; unimplemented in tests).
    public var date: DateGenerator {
        get { self[DateKey.self] }
        set { self[DateKey.self] = newValue }
    }

    /// New UUIDs (live: random; unimplemented in tests).
    public var uuid: UUIDGenerator {
        get { self[UUIDKey.self] }
        set { self[UUIDKey.self] = newValue }
    }
}

/// A source of random 64-bit numbers, as a value tests replace with a seeded one.
public struct RandomSource: Sendable {
    private let generate: @Sendable () -> UInt64

    /// A source from a closure.
    public init(_ generate: @escaping @Sendable () -> UInt64) { self.generate = generate }

    /// The next 64 random bits.
    public func next() -> UInt64 { generate() }

    /// A uniform number in [0, 1).
    public func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    /// The system's secure generator.
    public static let system = RandomSource {
        var generator = SystemRandomNumberGenerator()
        return generator.next()
    }
}

enum RandomKey: DependencyKey {
    static var liveValue: RandomSource { .system }
}

enum StorageDirectoryKey: DependencyKey {
    static var liveValue: URL {
        let environment = ProcessInfo.processInfo.environment
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            return URL(fileURLWithPath: data, isDirectory: true).appendingPathComponent("pwakit")
        }
        #if canImport(Darwin)
            return FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
                ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent("Library/Application Support")
        #else
            return URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share/pwakit")
        #endif
    }
}

extension DependencyValues {
    /// Random numbers (live: the system's secure generator; unimplemented in tests).
    public var random: RandomSource {
        get { self[RandomKey.self] }
        set { self[RandomKey.self] = newValue }
    }

    /// Where the app keeps its files (live: `$XDG_DATA_HOME/pwakit`, `~/.local/share/pwakit`, or
    /// Application Support on Apple platforms; unimplemented in tests).
    public var storageDirectory: URL {
        get { self[StorageDirectoryKey.self] }
        set { self[StorageDirectoryKey.self] = newValue }
    }
}
