/// How a request travels to the counterpart.
public enum DeliveryStrategy: String, Hashable, Sendable, Codable, CaseIterable {
    /// A live message when reachable, otherwise a queued user-info transfer.
    case messageWithUserInfoFallback
    /// A live message when reachable, otherwise the application context.
    case messageWithContextFallback
    /// Live messages only; fails with `not_reachable` when its retries run out while the
    /// counterpart is unreachable, and with `timeout` when they run out otherwise or at its deadline.
    case messageOnly
    /// Queued user-info transfers only; handlers run in send order.
    case userInfoOnly
    /// The application context only.
    case contextOnly

    /// Whether handlers of requests sent with this strategy run in send order.
    public var isOrdered: Bool { self == .userInfoOnly }

    /// The channel of the first attempt, given reachability.
    func channel(reachable: Bool) -> SessionChannel? {
        switch self {
        case .messageWithUserInfoFallback: reachable ? .message : .userInfo
        case .messageWithContextFallback: reachable ? .message : .applicationContext
        case .messageOnly: reachable ? .message : nil
        case .userInfoOnly: .userInfo
        case .contextOnly: .applicationContext
        }
    }
}
