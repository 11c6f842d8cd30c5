/// The page a call came from.
public struct BridgeCaller: Sendable, Hashable {
    /// The page's origin, e.g. `https://app.example.com` or `app://hello`.
    public var origin: String
    /// The page load; responses and events never outlive it.
    public var pageLoad: PageLoadID
    /// What the configuration grants this origin.
    public var grant: BridgeGrant

    /// Creates a caller.
    public init(origin: String, pageLoad: PageLoadID, grant: BridgeGrant) {
        self.origin = origin
        self.pageLoad = pageLoad
        self.grant = grant
    }
}

/// Identifies one load of one page: a navigation or reload starts a new one.
public struct PageLoadID: Sendable, Hashable, CustomStringConvertible {
    /// A number unique within one dispatcher.
    public let rawValue: UInt64

    /// Creates an id.
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// `page#N`.
    public var description: String { "page#\(rawValue)" }
}
