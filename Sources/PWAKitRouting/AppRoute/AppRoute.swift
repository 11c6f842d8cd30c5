public import Foundation

/// Where a link into the platform's own app goes; its URL forms are ``routes``.
///
/// | Route | Custom scheme | Universal link (prefix `/p`) |
/// |---|---|---|
/// | `home` | `myapp://` | `https://example.com/p` |
/// | `miniApp(appId: "notes", path: "n/42", query: [tab=all])` | `myapp://app/notes/n/42?tab=all` | `https://example.com/p/app/notes/n/42?tab=all` |
/// | `settings` | `myapp://settings` | `https://example.com/p/settings` |
/// | `signIn` | `myapp://sign-in` | `https://example.com/p/sign-in` |
/// | `notification(id: "n-1")` | `myapp://notification/n-1` | `https://example.com/p/notification/n-1` |
public enum AppRoute: Hashable, Sendable {
    /// The launcher.
    case home
    /// A mini-app opened at `path` (relative to its start page, `""` for the start page itself)
    /// with `query` handed to the page; `appId` follows ``MiniAppIdentifier``.
    case miniApp(appId: String, path: String, query: [URLQueryItem])
    /// The platform's settings.
    case settings
    /// The sign-in screen.
    case signIn
    /// The notification with this id, as a tap on it opens it.
    case notification(id: String)
}
