/// Why one ``RouteCase`` did not match, and how far it got: the deepest failure over all cases is
/// the one reported.
struct MatchFailure: Error {
    /// Path segments matched before the failure; a query failure counts as past the whole path.
    let depth: Int
    /// The error naming what did not match, or `nil` when the path simply has another shape
    /// (a different literal, too few or too many segments).
    let error: RoutingError?
}
