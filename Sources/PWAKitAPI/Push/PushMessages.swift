public import Foundation

/// The body of `POST /v1/devices`: this device's push token for the signed-in user.
public struct RegisterDeviceRequest: Codable, Hashable, Sendable {
    /// The token the push service gave the device: hexadecimal, 16 to 400 digits.
    public var token: String
    /// Which service delivers to it: `apns` (default), or `local` (a development sender that writes to a file).
    public var platform: String?
    /// The APNs environment the token belongs to: `production` (default) or `sandbox`.
    public var environment: String?

    /// Creates a request.
    public init(token: String, platform: String? = "apns", environment: String? = nil) {
        self.token = token
        self.platform = platform
        self.environment = environment
    }
}

/// A registered device, as its owner sees it.
public struct DeviceResponse: Codable, Hashable, Sendable {
    /// The push token.
    public var token: String
    /// The delivering service.
    public var platform: String
    /// The APNs environment.
    public var environment: String
    /// When it was last registered.
    public var updatedAt: Date

    /// Creates a description.
    public init(token: String, platform: String, environment: String, updatedAt: Date) {
        self.token = token
        self.platform = platform
        self.environment = environment
        self.updatedAt = updatedAt
    }
}

/// The body of `POST /v1/admin/push`: a notification to every device of one user.
public struct SendPushRequest: Codable, Hashable, Sendable {
    /// The user, by email.
    public var email: String
    /// The title shown.
    public var title: String
    /// The text shown.
    public var body: String
    /// Where a tap leads: a deep link (`myapp://app/notes/today`).
    public var route: String?

    /// Creates a request.
    public init(email: String, title: String, body: String, route: String? = nil) {
        self.email = email
        self.title = title
        self.body = body
        self.route = route
    }
}

/// The answer to `POST /v1/admin/push`: what became of each device.
public struct SendPushResponse: Codable, Hashable, Sendable {
    /// One device's outcome.
    public struct Delivery: Codable, Hashable, Sendable {
        /// The device's token.
        public var token: String
        /// `delivered`, `unregistered` (the service said the token is dead; the device was removed),
        /// `retry_later`, or `failed`.
        public var outcome: String
        /// The service's reason, when it gave one (`BadDeviceToken`).
        public var reason: String?

        /// Creates an outcome.
        public init(token: String, outcome: String, reason: String? = nil) {
            self.token = token
            self.outcome = outcome
            self.reason = reason
        }
    }

    /// Every device's outcome.
    public var deliveries: [Delivery]

    /// Creates an answer.
    public init(deliveries: [Delivery]) { self.deliveries = deliveries }
}
