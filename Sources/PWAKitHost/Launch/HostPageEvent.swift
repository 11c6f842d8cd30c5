public import PWAKitCore

/// What a host reports about its pages, for rules that bind to one page load (a new mini-app
/// release must report ready from its own document).
public enum HostPageEvent: Sendable, Hashable {
    /// A document of `origin` committed and its bridge page load opened.
    case opened(PageLoadID, origin: String)
    /// The page load called `lifecycle.ready`.
    case ready(PageLoadID, origin: String)
    /// The web process ended abnormally (crashed, or was killed).
    case webProcessTerminated
}
