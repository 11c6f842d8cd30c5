public import Foundation

/// The version of a shared-state value.
///
/// `sequenceNumber`, `timestamp`, `origin` and `updateID` are the seed's fields; the two
/// per-device counters form a version vector, which is how "older", "newer" and
/// "concurrent" (a conflict) are decided without trusting either device's wall clock.
public struct StateVersion: Hashable, Sendable, Codable {
    /// The originating device's update counter at this version.
    public var sequenceNumber: UInt64
    /// When the update was made, on the originating device's clock.
    public var timestamp: WatchTimestamp
    /// The device that made the update; a resolved conflict keeps the winner's origin.
    public var origin: DeviceOrigin
    /// A unique identifier of the update.
    public var updateID: UUID
    /// Updates made on the phone that this version includes.
    public var phoneCounter: UInt64
    /// Updates made on the watch that this version includes.
    public var watchCounter: UInt64

    /// Creates a version.
    public init(
        sequenceNumber: UInt64, timestamp: WatchTimestamp, origin: DeviceOrigin, updateID: UUID, phoneCounter: UInt64,
        watchCounter: UInt64
    ) {
        self.sequenceNumber = sequenceNumber
        self.timestamp = timestamp
        self.origin = origin
        self.updateID = updateID
        self.phoneCounter = phoneCounter
        self.watchCounter = watchCounter
    }

    enum CodingKeys: String, CodingKey {
        case sequenceNumber = "seq", timestamp = "at", origin, updateID = "id", phoneCounter = "p", watchCounter = "w"
    }

    /// The counter of `device`.
    public func counter(of device: DeviceOrigin) -> UInt64 { device == .phone ? phoneCounter : watchCounter }

    /// How this version relates to `other` causally.
    public func compare(to other: StateVersion) -> StateVersionOrder {
        let lessOrEqual = phoneCounter <= other.phoneCounter && watchCounter <= other.watchCounter
        let greaterOrEqual = phoneCounter >= other.phoneCounter && watchCounter >= other.watchCounter
        switch (lessOrEqual, greaterOrEqual) {
        case (true, true): return updateID == other.updateID ? .same : .concurrent
        case (true, false): return .older
        case (false, true): return .newer
        case (false, false): return .concurrent
        }
    }
}

/// The causal relation between two versions.
public enum StateVersionOrder: Hashable, Sendable {
    /// The same version.
    case same
    /// This version precedes the other.
    case older
    /// This version follows the other.
    case newer
    /// Neither includes the other: a conflict.
    case concurrent
}

/// A shared-state value with its version, as stored and sent.
public struct StateEntry: Hashable, Sendable, Codable {
    /// The JSON-encoded value.
    public var value: Data
    /// The value's version.
    public var version: StateVersion

    /// Creates an entry.
    public init(value: Data, version: StateVersion) {
        self.value = value
        self.version = version
    }
}
