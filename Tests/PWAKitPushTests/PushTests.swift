import Foundation
import PWAKitAPI
import PWAKitObservability
import PWAKitPush
import PWAKitTesting
import Synchronization
import Testing

/// A push service whose permission the test sets, as the system's settings would.
final class FakePushProvider: PushProvider {
    let state = Mutex<(permission: PushPermission, granted: Bool, settingsOpened: Int)>((.notDetermined, true, 0))
    let platform = "apns"
    let environment = "sandbox"

    func permission() async -> PushPermission { state.withLock { $0.permission } }
    func requestPermission(provisional: Bool) async throws -> Bool {
        state.withLock { state in
            if provisional {
                state.permission = .provisional
                return true
            }
            state.permission = state.granted ? .authorized : .denied
            return state.granted
        }
    }
    func deviceToken() async throws -> String { String(repeating: "AB", count: 32) }
    func openSettings() async { state.withLock { $0.settingsOpened += 1 } }
    func set(_ permission: PushPermission) { state.withLock { $0.permission = permission } }
}

/// A server's device registry, as a transport.
final class FakeRegistry: HTTPTransport {
    let requests = Mutex<[String]>([])
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        requests.withLock { $0.append("\(request.method) \(request.url.path)") }
        if request.method == "POST" {
            let body =
                #"{"token":"\#(String(repeating: "ab", count: 32))","platform":"apns","environment":"sandbox","updatedAt":"2027-01-15T08:00:00Z"}"#
            return HTTPResponseData(status: 201, body: Data(body.utf8))
        }
        return HTTPResponseData(status: 204)
    }
}

final class EventList: TelemetrySink {
    let items = Mutex<[TelemetryItem]>([])
    func record(_ item: TelemetryItem) { items.withLock { $0.append(item) } }
    var names: [String] { items.withLock { $0.map(\.name) } }
}

@MainActor
@Suite("Push permission funnel and device registration")
struct PushTests {
    static func telemetry(_ sink: EventList) throws -> Telemetry {
        let consent = ConsentStore(file: nil, isDebug: false)
        try consent.set(.analytics, granted: true)
        return Telemetry(sinks: [sink], consent: consent)
    }

    @Test("not determined: the pre-prompt comes after the delay; Enable asks the system and both steps are reported")
    func notDetermined() async throws {
        let provider = FakePushProvider()
        let events = EventList()
        let clock = ImmediateClock()
        let funnel = PermissionFunnel(provider: provider, telemetry: try Self.telemetry(events), clock: clock)
        try await funnel.contentShown()
        #expect(clock.sleeps == [.seconds(1)])
        #expect(funnel.prompt == .prePrompt)
        try await funnel.accept()
        #expect(funnel.prompt == .hidden)
        #expect(funnel.permission == .authorized)
        #expect(
            events.names == [
                "push_permission_initial_state", "push_permission_pre_prompt_accepted", "push_permission_system_prompt_result",
            ])
        #expect(events.items.withLock { $0[2].properties["granted"] } == .bool(true))
    }

    @Test("denied: the prompt offers the settings; a change made there is noticed on the return to the foreground")
    func denied() async throws {
        let provider = FakePushProvider()
        provider.set(.denied)
        let events = EventList()
        let funnel = PermissionFunnel(provider: provider, telemetry: try Self.telemetry(events), clock: ImmediateClock())
        try await funnel.contentShown()
        #expect(funnel.prompt == .deniedPrompt)
        await funnel.openSettings()
        #expect(provider.state.withLock { $0.settingsOpened } == 1)
        provider.set(.authorized)
        await funnel.returnedToForeground()
        #expect(
            events.names == ["push_permission_initial_state", "push_permission_settings_opened", "push_permission_state_changed"])
    }

    @Test("already allowed or provisional: no prompt at all; Not now is reported; the system's refusal too")
    func noPrompt() async throws {
        for permission in [PushPermission.authorized, .provisional] {
            let provider = FakePushProvider()
            provider.set(permission)
            let clock = ImmediateClock()
            let funnel = PermissionFunnel(provider: provider, clock: clock)
            try await funnel.contentShown()
            #expect(funnel.prompt == .hidden)
            #expect(clock.sleeps.isEmpty)
        }
        let provider = FakePushProvider()
        let events = EventList()
        let funnel = PermissionFunnel(provider: provider, telemetry: try Self.telemetry(events), clock: ImmediateClock())
        try await funnel.contentShown()
        funnel.dismiss()
        funnel.dismiss()
        #expect(events.names == ["push_permission_initial_state", "push_permission_pre_prompt_dismissed"])
        let refusing = FakePushProvider()
        refusing.state.withLock { $0.granted = false }
        let refusal = EventList()
        let second = PermissionFunnel(provider: refusing, telemetry: try Self.telemetry(refusal), clock: ImmediateClock())
        try await second.contentShown()
        try await second.accept()
        #expect(second.permission == .denied)
        #expect(refusal.items.withLock { $0.last?.properties["granted"] } == .bool(false))
        let quiet = FakePushProvider()
        try await PermissionFunnel(provider: quiet, clock: ImmediateClock()).requestProvisional()
        #expect(await quiet.permission() == .provisional)
    }

    @Test("the device registers on sign-in when allowed, on the foreground once allowed, and unregisters on sign-out")
    func registration() async throws {
        let provider = FakePushProvider()
        let registry = FakeRegistry()
        let events = EventList()
        let registration = PushRegistration(
            provider: provider, client: APIClient(baseURL: URL(string: "http://127.0.0.1:1")!, transport: registry),
            telemetry: try Self.telemetry(events))
        try await registration.signedIn(accessToken: "t")
        #expect(registry.requests.withLock { $0 }.isEmpty)
        provider.set(.authorized)
        try await registration.returnedToForeground(accessToken: "t")
        #expect(await registration.registeredToken == String(repeating: "ab", count: 32))
        try await registration.returnedToForeground(accessToken: "t")
        try await registration.signingOut(accessToken: "t")
        #expect(await registration.registeredToken == nil)
        #expect(
            registry.requests.withLock { $0 } == ["POST /v1/devices", "DELETE /v1/devices/\(String(repeating: "ab", count: 32))"])
        #expect(events.names == ["push_permission_state_changed"])
    }
}
