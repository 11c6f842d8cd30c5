/// Builds the list of ``RouteCase``s of ``Routes``; other ``Routes`` of the same type may be included.
@resultBuilder
public enum RoutesBuilder<Route> {
    /// One case.
    public static func buildExpression(_ routeCase: RouteCase<Route>) -> [RouteCase<Route>] { [routeCase] }
    /// Every case of other routes.
    public static func buildExpression(_ routes: Routes<Route>) -> [RouteCase<Route>] { routes.cases }
    /// The cases in order.
    public static func buildBlock(_ groups: [RouteCase<Route>]...) -> [RouteCase<Route>] { groups.flatMap { $0 } }
    /// Cases declared under `if`.
    public static func buildOptional(_ group: [RouteCase<Route>]?) -> [RouteCase<Route>] { group ?? [] }
    /// Cases of the first branch of an `if`/`else`.
    public static func buildEither(first group: [RouteCase<Route>]) -> [RouteCase<Route>] { group }
    /// Cases of the second branch of an `if`/`else`.
    public static func buildEither(second group: [RouteCase<Route>]) -> [RouteCase<Route>] { group }
    /// Cases declared in a `for` loop.
    public static func buildArray(_ groups: [[RouteCase<Route>]]) -> [RouteCase<Route>] { groups.flatMap { $0 } }
}
