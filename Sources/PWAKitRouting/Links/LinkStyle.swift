/// Which of an app's two URL forms a route is written as.
public enum LinkStyle: Sendable, Hashable, CaseIterable {
    /// The app's own scheme: `myapp://items/42?tab=notes`.
    case customScheme
    /// An `https` link on the first universal-link host, under the path prefix:
    /// `https://example.com/items/42?tab=notes`.
    case universalLink
}
