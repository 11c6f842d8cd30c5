public import PWAKitCore

/// Where a navigation starts: the top frame, a sub-frame, or a new window (`window.open`,
/// `target=_blank`).
public enum NavigationTarget: Sendable, Hashable {
    /// The app's own view.
    case mainFrame
    /// An iframe inside a page.
    case subFrame
    /// A new window the page asked for.
    case newWindow
}

/// What a host does with one navigation.
public enum HostNavigationAction: Sendable, Hashable {
    /// Load it in the app's view (a new window's URL loads in the app's view too).
    case load
    /// Load it in the app's view for signing in, with a visible way back to the start URL.
    case loadForSignIn
    /// Do not load it; hand it to the desktop's browser.
    case openExternally(String)
    /// Do not load it; hand it to the system (`tel:`, `mailto:` …).
    case openInSystem(String)
    /// Do not load it at all.
    case block
}

/// Applies a configuration's ``OriginPolicy`` to the navigations a web view asks about.
///
/// Top-level and new-window navigations follow the policy's classification. Sub-frames may
/// load only allowed and auth origins; a sub-frame is never handed to the desktop, so an
/// embedded frame cannot open windows outside the app. `about:blank` and `about:srcdoc`
/// load in frames (they inherit their parent's origin), never as new windows.
public struct HostNavigator: Sendable {
    /// The policy applied.
    public let policy: OriginPolicy

    /// A navigator for `policy`.
    public init(policy: OriginPolicy) {
        self.policy = policy
    }

    /// The action for a navigation to `url` from `target`.
    public func decide(_ url: String, target: NavigationTarget) -> HostNavigationAction {
        // NB: `about:blank` and `about:srcdoc` documents inherit their parent's origin; a new
        // window of one would only replace the app with an empty page.
        if url == "about:blank" || url == "about:srcdoc" { return target == .newWindow ? .block : .load }
        let decision = policy.classify(url)
        switch (decision, target) {
        case (.allowed, _): return .load
        case (.auth, .subFrame): return .load
        case (.auth, _): return .loadForSignIn
        case (_, .subFrame): return .block
        case (.external, _): return .openExternally(url)
        case (.system, _): return .openInSystem(url)
        case (.blocked, _): return .block
        }
    }

    /// The bridge grant for a top-level document at `url`; ``BridgeGrant/denied`` for any
    /// navigation the policy does not load as `allowed` (auth pages never reach the bridge).
    public func grant(forDocumentAt url: String) -> BridgeGrant {
        guard policy.classify(url) == .allowed else { return .denied }
        return policy.bridgeGrant(forURL: url)
    }
}
