/// Every query item the pattern does not name, captured in order as `[URLQueryItem]`.
///
/// An item without `=` has a `nil` value; `name=` has the empty string. Printing refuses an item
/// whose name the pattern reads with ``Query``, since it would be read back as that query.
public struct RemainingQuery: Sendable {
    /// The remaining query items.
    public init() {}
}
