public import Observation
import PWAKitAPI
public import PWAKitObservability

/// The push permission funnel of the seed, as a view model: a pre-prompt explaining the value,
/// shown only while the permission is not determined and only after the person has seen the app
/// for a moment; a different prompt with a way to the system's settings when it was denied; no
/// prompt at all when notifications are already allowed (or provisional). Every step is reported
/// with the seed's event names.
@MainActor @Observable
public final class PermissionFunnel {
    /// What the view shows.
    public enum Prompt: Equatable, Sendable {
        /// Nothing.
        case hidden
        /// "Turn on notifications?" with Enable and Not now.
        case prePrompt
        /// "Notifications are off" with Open Settings and Not now.
        case deniedPrompt
    }

    /// What the view shows now.
    public private(set) var prompt: Prompt = .hidden
    /// The permission last read.
    public private(set) var permission: PushPermission?

    @ObservationIgnored private let provider: any PushProvider
    @ObservationIgnored private let telemetry: Telemetry
    @ObservationIgnored private let clock: any Clock<Duration>
    @ObservationIgnored private let delay: Duration

    /// Creates the funnel; the pre-prompt waits `delay` (one second in the seed) after the app
    /// showed its content.
    public init(
        provider: any PushProvider, telemetry: Telemetry = .disabled, clock: any Clock<Duration> = ContinuousClock(),
        delay: Duration = .seconds(1)
    ) {
        self.provider = provider
        self.telemetry = telemetry
        self.clock = clock
        self.delay = delay
    }

    /// The person signed in and sees content: reads the permission (reported as
    /// `push_permission_initial_state`) and, after the delay, shows the prompt that fits it.
    public func contentShown() async throws {
        let current = await provider.permission()
        permission = current
        telemetry.track("push_permission_initial_state", ["status": .string(current.rawValue)])
        guard current == .notDetermined || current == .denied else { return }
        let clock = clock
        try await clock.sleep(for: delay)
        prompt = current == .notDetermined ? .prePrompt : .deniedPrompt
    }

    /// "Enable": reported, then the system prompt, whose answer is reported too.
    public func accept() async throws {
        guard prompt == .prePrompt else { return }
        prompt = .hidden
        telemetry.track("push_permission_pre_prompt_accepted")
        let granted = try await provider.requestPermission(provisional: false)
        telemetry.track("push_permission_system_prompt_result", ["granted": .bool(granted)])
        permission = await provider.permission()
    }

    /// "Not now" on either prompt: reported; the prompt goes away.
    public func dismiss() {
        guard prompt != .hidden else { return }
        telemetry.track("push_permission_pre_prompt_dismissed", ["prompt": .string(prompt == .prePrompt ? "pre" : "denied")])
        prompt = .hidden
    }

    /// "Open Settings" on the denied prompt: reported, then the system's settings.
    public func openSettings() async {
        guard prompt == .deniedPrompt else { return }
        prompt = .hidden
        telemetry.track("push_permission_settings_opened")
        await provider.openSettings()
    }

    /// Quiet delivery without a prompt, for apps that want it before asking.
    public func requestProvisional() async throws {
        guard await provider.permission() == .notDetermined else { return }
        _ = try await provider.requestPermission(provisional: true)
        permission = await provider.permission()
    }

    /// On every return to the foreground: a change made in the settings is noticed and reported.
    public func returnedToForeground() async {
        let current = await provider.permission()
        if let previous = permission, previous != current {
            telemetry.track(
                "push_permission_state_changed", ["from": .string(previous.rawValue), "to": .string(current.rawValue)])
            if current.canDeliver { prompt = .hidden }
        }
        permission = current
    }
}
