/// A route type's URL forms, declared once: the list of ``RouteCase``s that both parses a path
/// and query into a route and prints a route back.
///
/// ```swift
/// let routes = Routes<ShopRoute> {
///     RouteCase(ShopRoute.home) {}
///     RouteCase(ShopRoute.item) { "items"; Parameter(Int.self) } extract: {
///         if case .item(let id) = $0 { id } else { nil }
///     }
/// }
/// ```
///
/// Cases are tried in order and the first that matches wins. A ``Router`` binds the routes to an
/// app's scheme and universal-link hosts.
public struct Routes<Route>: Sendable {
    let cases: [RouteCase<Route>]

    /// The routes a builder block declares.
    public init(@RoutesBuilder<Route> _ build: () -> [RouteCase<Route>]) {
        cases = build()
    }

    /// The routes of `cases`, in order.
    public init(_ cases: [RouteCase<Route>]) {
        self.cases = cases
    }
}
