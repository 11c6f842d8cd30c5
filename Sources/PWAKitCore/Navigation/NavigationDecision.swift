/// Where a navigation goes, as decided by ``OriginPolicy/classify(_:)``.
public enum NavigationDecision: String, Sendable {
    /// Load inside the app; the page may reach the bridge (subject to its grant).
    case allowed
    /// Load inside the app for signing in; the page never reaches the bridge.
    case auth
    /// Open in the system browser.
    case external
    /// Hand to the operating system (`tel:`, `mailto:`, `sms:`, `facetime:`, `maps:`).
    case system
    /// Do not navigate at all (`javascript:`, `file:`, `data:`, unparseable URLs, other apps' bundles).
    case blocked
}
