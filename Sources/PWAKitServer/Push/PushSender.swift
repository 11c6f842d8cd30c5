import Foundation

/// A notification for one device.
public struct PushMessage: Hashable, Sendable {
    /// The title shown.
    public var title: String
    /// The text shown.
    public var body: String
    /// Where a tap leads (a deep link), carried in the payload's `route`.
    public var route: String?

    /// Creates a message.
    public init(title: String, body: String, route: String? = nil) {
        self.title = title
        self.body = body
        self.route = route
    }
}

/// What became of one delivery.
public enum PushOutcome: Hashable, Sendable {
    /// The service accepted it.
    case delivered
    /// The service says the token is dead (`BadDeviceToken`, `Unregistered`, …): unregister it.
    case invalidToken(reason: String)
    /// The service is overloaded or failing: try again later.
    case retryLater(reason: String)
    /// Anything else (a bad request, a bad provider key).
    case failed(reason: String)
}

/// What delivers push notifications: APNs in production, a file in development.
public protocol PushSender: Sendable {
    /// Delivers `message` to `device`.
    func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome
}
