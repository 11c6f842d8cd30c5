public import Foundation
public import PWAKitRetry

/// How concurrent shared-state updates are reconciled, on encoded values.
///
/// Every rule is a pure, symmetric function of the two entries, so both devices pick the same
/// result from the same pair and converge.
public enum StateResolution: Sendable {
    /// The later timestamp wins.
    case latestWins
    /// The earlier timestamp wins.
    case earliestWins
    /// The phone's update wins.
    case iOSWins
    /// The watch's update wins.
    case watchOSWins
    /// The higher sequence number wins.
    case highestSequenceWins
    /// A merge of the phone-side and watch-side values (in that order); `nil` keeps the later one.
    case custom(@Sendable (_ phoneSide: Data, _ watchSide: Data) -> Data?)

    /// Resolves two concurrent entries into one whose version includes both.
    public func resolve(_ a: StateEntry, _ b: StateEntry) -> StateEntry {
        let (first, second) = Self.canonicalOrder(a, b)
        var winner: StateEntry
        switch self {
        case .latestWins: winner = Self.later(first, second)
        case .earliestWins: winner = Self.later(first, second) == first ? second : first
        case .iOSWins: winner = Self.preferring(.phone, first, second)
        case .watchOSWins: winner = Self.preferring(.watch, first, second)
        case .highestSequenceWins:
            if first.version.sequenceNumber == second.version.sequenceNumber {
                winner = Self.later(first, second)
            } else {
                winner = first.version.sequenceNumber > second.version.sequenceNumber ? first : second
            }
        case .custom(let merge):
            winner = Self.later(first, second)
            if let merged = merge(first.value, second.value) {
                winner.value = merged
                winner.version.updateID = Self.combine(first.version.updateID, second.version.updateID)
                winner.version.timestamp = max(first.version.timestamp, second.version.timestamp)
                winner.version.sequenceNumber = max(first.version.sequenceNumber, second.version.sequenceNumber)
            }
        }
        winner.version.phoneCounter = max(a.version.phoneCounter, b.version.phoneCounter)
        winner.version.watchCounter = max(a.version.watchCounter, b.version.watchCounter)
        return winner
    }

    /// Orders a pair independently of which side is local: phone origin first, then by update id.
    static func canonicalOrder(_ a: StateEntry, _ b: StateEntry) -> (StateEntry, StateEntry) {
        if a.version.origin != b.version.origin { return a.version.origin < b.version.origin ? (a, b) : (b, a) }
        return a.version.updateID.uuidString <= b.version.updateID.uuidString ? (a, b) : (b, a)
    }

    private static func later(_ first: StateEntry, _ second: StateEntry) -> StateEntry {
        if first.version.timestamp != second.version.timestamp {
            return first.version.timestamp > second.version.timestamp ? first : second
        }
        if first.version.sequenceNumber != second.version.sequenceNumber {
            return first.version.sequenceNumber > second.version.sequenceNumber ? first : second
        }
        return second
    }

    private static func preferring(_ origin: DeviceOrigin, _ first: StateEntry, _ second: StateEntry) -> StateEntry {
        if first.version.origin == second.version.origin { return later(first, second) }
        return first.version.origin == origin ? first : second
    }

    private static func combine(_ x: UUID, _ y: UUID) -> UUID {
        let a = withUnsafeBytes(of: x.uuid) { Array($0) }
        let b = withUnsafeBytes(of: y.uuid) { Array($0) }
        var bytes = zip(a, b).map { $0 ^ $1 }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID.fromBytes(bytes)
    }
}

extension UUID {
    static func fromBytes(_ b: [UInt8]) -> UUID {
        UUID(uuid: (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]))
    }
}

extension SeededRandom {
    /// A random version-4 UUID drawn from this generator.
    public mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        // NB: the bytes of `high`, then of `low`, least significant first, written in place.
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { raw in
            raw.storeBytes(of: high.littleEndian, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: low.littleEndian, toByteOffset: 8, as: UInt64.self)
            raw[6] = (raw[6] & 0x0F) | 0x40
            raw[8] = (raw[8] & 0x3F) | 0x80
        }
        return UUID(uuid: bytes)
    }
}
