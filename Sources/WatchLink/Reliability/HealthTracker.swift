/// The health of the link, derived from consecutive delivery failures.
public enum LinkHealth: String, Hashable, Sendable, Codable {
    /// Deliveries are succeeding.
    case healthy
    /// Several consecutive deliveries failed.
    case degraded
    /// Many consecutive deliveries failed; the user may need to act.
    case unhealthy

    /// What to suggest to the user in this state.
    public var recoverySuggestion: String? {
        switch self {
        case .healthy: nil
        case .degraded: "Keep the devices close together and the companion app open."
        case .unhealthy: "Check Bluetooth and Wi-Fi, open the companion app, or restart both devices."
        }
    }
}

/// Tracks consecutive failures: healthy → degraded after 3 → unhealthy after 10; any success → healthy.
public struct HealthTracker: Hashable, Sendable {
    /// Consecutive failures that make the link degraded.
    public var degradedThreshold: Int
    /// Consecutive failures that make the link unhealthy.
    public var unhealthyThreshold: Int
    /// Failures since the last success.
    public private(set) var consecutiveFailures = 0
    /// The current health.
    public private(set) var health: LinkHealth = .healthy

    /// Creates a tracker with the given thresholds (defaults 3 and 10).
    public init(degradedThreshold: Int = 3, unhealthyThreshold: Int = 10) {
        self.degradedThreshold = degradedThreshold
        self.unhealthyThreshold = max(unhealthyThreshold, degradedThreshold)
    }

    /// Records a success; returns the new health if it changed.
    @discardableResult
    public mutating func recordSuccess() -> LinkHealth? {
        consecutiveFailures = 0
        return set(.healthy)
    }

    /// Records a failure; returns the new health if it changed.
    @discardableResult
    public mutating func recordFailure() -> LinkHealth? {
        consecutiveFailures += 1
        if consecutiveFailures >= unhealthyThreshold { return set(.unhealthy) }
        if consecutiveFailures >= degradedThreshold { return set(.degraded) }
        return nil
    }

    private mutating func set(_ new: LinkHealth) -> LinkHealth? {
        guard new != health else { return nil }
        health = new
        return new
    }
}
