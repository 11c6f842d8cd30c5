import Foundation

/// How a ``SharedState`` reconciles concurrent updates from both devices.
public enum ConflictStrategy<Value: Codable & Sendable>: Sendable {
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
    /// A deterministic merge of the phone-side and watch-side values, in that order.
    case custom(@Sendable (_ phoneSide: Value, _ watchSide: Value) -> Value)

    /// The equivalent rule over encoded values.
    var resolution: StateResolution {
        switch self {
        case .latestWins: .latestWins
        case .earliestWins: .earliestWins
        case .iOSWins: .iOSWins
        case .watchOSWins: .watchOSWins
        case .highestSequenceWins: .highestSequenceWins
        case .custom(let merge):
            .custom { phone, watch in
                guard let a = try? JSONDecoder().decode(Value.self, from: phone),
                    let b = try? JSONDecoder().decode(Value.self, from: watch)
                else { return nil }
                return try? WireCodec.encodeValue(merge(a, b))
            }
        }
    }
}
