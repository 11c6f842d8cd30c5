/// Whether the app may show notifications, as the system reports it.
public enum PushPermission: String, Hashable, Sendable, Codable {
    /// Never asked: the pre-prompt may be shown, then the system prompt.
    case notDetermined
    /// Refused; only the system's settings can change it.
    case denied
    /// Allowed.
    case authorized
    /// Allowed quietly (delivered to the notification center without a prompt).
    case provisional
    /// Allowed for a limited time (an App Clip).
    case ephemeral

    /// Whether notifications can be delivered.
    public var canDeliver: Bool { self == .authorized || self == .provisional || self == .ephemeral }
}
