public import PWAKitAPI
public import PWAKitObservability

/// Keeps the server's device registry in step with the account: registers the device's token
/// (`POST /v1/devices`) on sign-in and whenever the app returns to the foreground with permission,
/// unregisters it (`DELETE /v1/devices/{token}`) on sign-out, and re-reads the permission on
/// every return to the foreground, reporting each change (`push_permission_state_changed`) —
/// the way a permission granted or revoked in the system's settings is noticed.
public actor PushRegistration {
    private let provider: any PushProvider
    private let client: APIClient
    private let telemetry: Telemetry
    /// The token registered for the signed-in user, if any.
    public private(set) var registeredToken: String?
    /// The permission last read.
    public private(set) var permission: PushPermission?

    /// Creates the registration.
    public init(provider: any PushProvider, client: APIClient, telemetry: Telemetry = .disabled) {
        self.provider = provider
        self.client = client
        self.telemetry = telemetry
    }

    /// After a sign-in: registers the device when notifications can be delivered.
    public func signedIn(accessToken: String) async throws {
        let current = await readPermission()
        guard current.canDeliver else { return }
        try await register(accessToken: accessToken)
    }

    /// Before a sign-out: unregisters the device (a device that cannot reach the server stays
    /// registered; the server drops it when the push service calls its token dead).
    public func signingOut(accessToken: String) async throws {
        guard let token = registeredToken else { return }
        registeredToken = nil
        try await client.callExpectingNoContent(
            "DELETE", "/v1/devices/\(token)", credential: .bearer(accessToken), idempotent: true)
    }

    /// On every return to the foreground: re-reads the permission, reports a change, and
    /// registers (or stops counting on) the device accordingly.
    @discardableResult
    public func returnedToForeground(accessToken: String?) async throws -> PushPermission {
        let current = await readPermission()
        if current.canDeliver, let accessToken, registeredToken == nil { try await register(accessToken: accessToken) }
        return current
    }

    private func readPermission() async -> PushPermission {
        let current = await provider.permission()
        if let previous = permission, previous != current {
            telemetry.track(
                "push_permission_state_changed", ["from": .string(previous.rawValue), "to": .string(current.rawValue)])
        }
        permission = current
        return current
    }

    private func register(accessToken: String) async throws {
        let token = try await provider.deviceToken()
        let request = RegisterDeviceRequest(token: token, platform: provider.platform, environment: provider.environment)
        let _: DeviceResponse = try await client.call(
            "POST", "/v1/devices", body: APIClient.encode(request), credential: .bearer(accessToken), idempotent: true)
        registeredToken = token.lowercased()
    }
}
