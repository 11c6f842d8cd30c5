public import Foundation
public import PWAKitAPI
import Synchronization

/// Delivers through APNs over an injected HTTP transport (`URLSessionTransport` by default; APNs
/// needs HTTP/2, which that transport gets only where the platform's URLSession negotiates it),
/// with a provider token renewed every 50 minutes and at once when APNs answers
/// `ExpiredProviderToken`.
public final class APNsSender: PushSender {
    /// The provider key.
    public let credentials: APNsRequest.Credentials
    private let transport: any HTTPTransport
    private let now: @Sendable () -> Date
    private let token = Mutex<(value: String, issued: Date)?>(nil)

    /// Creates a sender.
    public init(
        credentials: APNsRequest.Credentials, transport: any HTTPTransport = URLSessionTransport(),
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.credentials = credentials
        self.transport = transport
        self.now = now
    }

    /// Sends one notification; a 403 `ExpiredProviderToken` renews the token and tries once more.
    public func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome {
        for attempt in 0..<2 {
            do {
                let providerToken = try currentToken(renew: attempt > 0)
                let request = try APNsRequest.make(
                    message, to: device, topic: credentials.topic, providerToken: providerToken,
                    expiration: now().addingTimeInterval(24 * 3600))
                let response = try await transport.send(
                    HTTPRequestData(method: "POST", url: request.url, headers: request.headers, body: request.body))
                let outcome = APNsRequest.outcome(status: response.status, body: response.body)
                if case .retryLater("ExpiredProviderToken") = outcome, attempt == 0 { continue }
                return outcome
            } catch {
                return .retryLater(reason: "\(error)")
            }
        }
        return .retryLater(reason: "ExpiredProviderToken")
    }

    private func currentToken(renew: Bool) throws -> String {
        let date = now()
        if !renew, let current = token.withLock({ $0 }), date.timeIntervalSince(current.issued) < 50 * 60 {
            return current.value
        }
        let fresh = try APNsRequest.providerToken(credentials, issuedAt: date)
        token.withLock { $0 = (fresh, date) }
        return fresh
    }
}
