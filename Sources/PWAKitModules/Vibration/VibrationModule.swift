public import PWAKitCore

/// `vibration`: the Web Vibration API's `vibrate(pattern)` over the bridge. Always available.
public struct VibrationModule: ActionModule {
    /// `vibration`.
    public static let moduleName = "vibration"
    /// One line for the reference.
    public static let summary = "Vibrates in a pattern of on/off milliseconds (the Web Vibration API's shape)."
    /// `vibrate`.
    public static let actions = ModuleActions<VibrationModule>()
        .action(
            "vibrate", payload: VibrationPattern.self, result: VibrationResult.self,
            summary: "Vibrates for `pattern` (on, off, on, … ms); `[]` or `[0]` stops a running pattern.",
            example: VibrationPattern(pattern: [200, 100, 200])
        ) { module, pattern, _ in
            VibrationResult(vibrated: await module.provider.vibrate(pattern.pattern))
        }

    let provider: any VibrationProvider

    /// Creates the module over `provider`.
    public init(provider: any VibrationProvider) {
        self.provider = provider
    }
}

/// The payload of `vibration.vibrate`.
public struct VibrationPattern: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// Alternating on and off durations in milliseconds.
    public var pattern: [Int]

    /// Creates a payload.
    public init(pattern: [Int]) { self.pattern = pattern }

    /// The limits.
    public static let fieldNotes = ["pattern": "at most 128 entries, each 0…10000 ms"]

    /// At most 128 entries, each 0…10000.
    public func validate() throws(BridgeError) {
        if pattern.count > 128 { throw .field(.invalidPayload, path: "payload.pattern", "at most 128 entries") }
        for (index, duration) in pattern.enumerated() {
            try FieldCheck.range(duration, 0...10_000, "payload.pattern[\(index)]")
        }
    }
}

/// The result of `vibration.vibrate`.
public struct VibrationResult: Codable, Sendable, Hashable {
    /// Whether the device vibrates (false when it has no vibration motor).
    public var vibrated: Bool
}

/// Drives the vibration motor.
public protocol VibrationProvider: Sendable {
    /// Plays `pattern`; returns whether the device can vibrate.
    func vibrate(_ pattern: [Int]) async -> Bool
}
