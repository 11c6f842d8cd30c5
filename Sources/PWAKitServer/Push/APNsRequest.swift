public import Crypto
public import Foundation
import PWAKitEncoding

/// Apple Push Notification service requests, as Apple documents them ("Sending notification
/// requests to APNs"): `POST /3/device/<token>` over HTTP/2 to `api.push.apple.com` (or
/// `api.sandbox.push.apple.com`), token-based authentication with a provider JWT (ES256, signed
/// with the team's `.p8` key, `kid` the key id, `iss` the team id, `iat` the issue time, renewed
/// every 50 minutes as APNs refuses tokens older than an hour), and the headers `apns-topic` (the
/// app's bundle id), `apns-push-type`, `apns-priority` and `apns-expiration`.
public struct APNsRequest: Sendable {
    /// The provider key and who it belongs to.
    public struct Credentials: Sendable {
        /// The `.p8` key's private key.
        public let key: P256.Signing.PrivateKey
        /// The key's id (10 characters, shown in the developer account).
        public let keyId: String
        /// The team id (10 characters).
        public let teamId: String
        /// The app's bundle id: the `apns-topic`.
        public let topic: String

        /// Reads the PEM text of a `.p8` file.
        public init(p8 pem: String, keyId: String, teamId: String, topic: String) throws {
            key = try P256.Signing.PrivateKey(pemRepresentation: pem)
            self.keyId = keyId
            self.teamId = teamId
            self.topic = topic
        }
    }

    /// The host for an environment.
    public static func host(environment: String) -> String {
        environment == "sandbox" ? "api.sandbox.push.apple.com" : "api.push.apple.com"
    }

    /// The provider token: `header.claims.signature`, base64url, ES256 (the raw 64-byte r‖s).
    public static func providerToken(_ credentials: Credentials, issuedAt: Date) throws -> String {
        let header = #"{"alg":"ES256","kid":"\#(credentials.keyId)"}"#
        let claims = #"{"iat":\#(Int(issuedAt.timeIntervalSince1970)),"iss":"\#(credentials.teamId)"}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try credentials.key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature.rawRepresentation)
    }

    /// The JSON payload: `aps.alert` with the title and body, the default sound, and the route
    /// beside `aps` for the app to open on a tap.
    public static func payload(for message: PushMessage) -> [String: Any] {
        var payload: [String: Any] = ["aps": ["alert": ["title": message.title, "body": message.body], "sound": "default"]]
        if let route = message.route { payload["route"] = route }
        return payload
    }

    /// The request for one device.
    public static func make(
        _ message: PushMessage, to device: DeviceRecord, topic: String, providerToken: String, expiration: Date
    ) throws -> (url: URL, headers: [String: String], body: Data) {
        guard let url = URL(string: "https://\(host(environment: device.environment))/3/device/\(device.token)") else {
            throw PushFailure("the device token cannot be put in a URL")
        }
        let headers = [
            "authorization": "bearer \(providerToken)", "apns-topic": topic, "apns-push-type": "alert", "apns-priority": "10",
            "apns-expiration": String(Int(expiration.timeIntervalSince1970)), "content-type": "application/json",
        ]
        let body = try JSONSerialization.data(withJSONObject: payload(for: message), options: [.sortedKeys])
        return (url, headers, body)
    }

    /// What an APNs answer means, from its status and its JSON `reason` (Apple's table of
    /// "Handling notification responses from APNs").
    public static func outcome(status: Int, body: Data) -> PushOutcome {
        let reason =
            ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["reason"] as? String ?? "HTTP \(status)"
        switch status {
        case 200: return .delivered
        case 410: return .invalidToken(reason: reason)
        case 400 where ["BadDeviceToken", "DeviceTokenNotForTopic"].contains(reason): return .invalidToken(reason: reason)
        case 429, 500, 503: return .retryLater(reason: reason)
        case 403 where reason == "ExpiredProviderToken": return .retryLater(reason: reason)
        default: return .failed(reason: reason)
        }
    }
}

/// A push that could not be built.
struct PushFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
