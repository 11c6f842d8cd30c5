public import PWAKitDependencies

enum TelemetryKey: DependencyKey {
    static var liveValue: Telemetry { .disabled }
    static var testValue: Telemetry? { .disabled }
}

extension DependencyValues {
    /// The app's telemetry (live: disabled until the app sets its own at launch; in tests: disabled,
    /// so code under test may report freely).
    public var telemetry: Telemetry {
        get { self[TelemetryKey.self] }
        set { self[TelemetryKey.self] = newValue }
    }
}
