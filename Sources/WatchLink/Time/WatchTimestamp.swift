import Foundation
import PWAKitRetry

/// A wall-clock instant in whole milliseconds since 1970, as carried on the wire.
public struct WatchTimestamp: Hashable, Comparable, Sendable, Codable, CustomStringConvertible {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    public var milliseconds: Int64

    /// Creates a timestamp from milliseconds since 1970.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The wall-clock time now.
    public static var now: WatchTimestamp { WatchTimestamp(milliseconds: Int64(Date().timeIntervalSince1970 * 1000)) }

    /// Decodes a timestamp from a bare integer.
    public init(from decoder: any Decoder) throws {
        milliseconds = try decoder.singleValueContainer().decode(Int64.self)
    }

    /// Encodes the timestamp as a bare integer.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }

    /// Orders timestamps chronologically.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// This timestamp moved by `duration` (rounded down to milliseconds).
    public func advanced(by duration: Duration) -> WatchTimestamp {
        WatchTimestamp(milliseconds: milliseconds &+ duration.wholeMilliseconds)
    }

    /// The duration from this timestamp to `other`.
    public func duration(to other: WatchTimestamp) -> Duration {
        .milliseconds(other.milliseconds &- milliseconds)
    }

    /// The number of milliseconds.
    public var description: String { "\(milliseconds)ms" }
}
