/// The system's push service, behind a protocol: UserNotifications and APNs on Apple platforms
/// (a thin adapter under `Apple/`), a simulated one on Linux and in tests.
public protocol PushProvider: Sendable {
    /// The permission now (read afresh each time: it changes in the system's settings).
    func permission() async -> PushPermission
    /// Shows the system prompt (or, with `provisional`, grants quiet delivery without one);
    /// whether notifications are now allowed.
    func requestPermission(provisional: Bool) async throws -> Bool
    /// Registers with the push service and returns this device's token (hexadecimal).
    func deviceToken() async throws -> String
    /// Which service the token belongs to (`apns`, or `local` for a development sender).
    var platform: String { get }
    /// The APNs environment of the token (`production` or `sandbox`).
    var environment: String { get }
    /// Opens the system's settings for the app (the way back from `denied`).
    func openSettings() async
}
