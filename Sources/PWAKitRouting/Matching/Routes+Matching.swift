extension Routes {
    /// The route of the first case `path` matches, or the error of the case that got furthest.
    ///
    /// A specific error (`invalid_parameter`, a query error) is reported when its case matched at
    /// least one segment first, or the whole path; otherwise `no_matching_route` names the path.
    func route(for path: RoutePath) throws(RoutingError) -> Route {
        var best: MatchFailure?
        for routeCase in cases {
            switch routeCase.match(path) {
            case .success(let route):
                return route
            case .failure(let failure):
                guard let current = best else {
                    best = failure
                    continue
                }
                if failure.depth > current.depth
                    || (failure.depth == current.depth && current.error == nil && failure.error != nil)
                {
                    best = failure
                }
            }
        }
        if let best, best.depth > 0, let error = best.error { throw error }
        throw RoutingError(.noMatchingRoute, "no route matches the path '\(path.summary)'", field: "path")
    }

    /// The path and query of `route` under the first case that takes it.
    func path(for route: Route) throws(RoutingError) -> RoutePath {
        for routeCase in cases {
            if let values = routeCase.extract(route) { return try routeCase.print(values) }
        }
        throw RoutingError(
            .unprintableRoute, "no declared case takes \(Clip.text(String(describing: route))); is a RouteCase missing?")
    }
}
