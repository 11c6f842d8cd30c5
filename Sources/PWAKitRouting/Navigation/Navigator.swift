public import Foundation
public import Observation

/// The navigation stack of a screen: the routes pushed over its root, changed by the app and by
/// links and push taps that parse as routes.
///
/// Bind ``path`` to a navigation stack (`NavigationStack(path: $navigator.path)` in SwiftUI); the
/// root route, when given, is the screen under the stack, so going to it pops to the root rather
/// than pushing.
@MainActor
@Observable
public final class Navigator<Route: Hashable & Sendable> {
    /// The routes over the root, bottom first; empty at the root.
    public var path: [Route]
    /// The routes and configuration links are read with.
    @ObservationIgnored public let router: Router<Route>
    /// The route of the screen under the stack, if the route type has one.
    @ObservationIgnored public let root: Route?

    /// A navigator reading links with `router`, starting at `path`.
    public init(router: Router<Route>, root: Route? = nil, path: [Route] = []) {
        self.router = router
        self.root = root
        self.path = path
    }

    /// The route on top, or `nil` at the root.
    public var current: Route? { path.last }

    /// Pushes `route`; the root route pops to the root instead.
    public func navigate(to route: Route) {
        if route == root {
            popToRoot()
        } else {
            path.append(route)
        }
    }

    /// Removes the route on top; nothing at the root.
    public func pop() {
        if !path.isEmpty { path.removeLast() }
    }

    /// Removes every route.
    public func popToRoot() {
        if !path.isEmpty { path.removeAll() }
    }

    /// Replaces the whole stack with `route` alone (the root route empties it).
    public func replace(with route: Route) {
        path = route == root ? [] : [route]
    }

    /// Navigates to the route `url` spells and answers `true`; answers `false` and leaves the
    /// stack unchanged for a URL that is not one of the app's routes. A link to the route already
    /// on top does not push it twice.
    @discardableResult
    public func handle(url: URL) -> Bool {
        guard let route = router.route(for: url) else { return false }
        open(route)
        return true
    }

    /// Navigates to the route a push notification's payload names (see
    /// ``Router/route(fromPushPayload:)``) and answers `true`; `false` and unchanged otherwise.
    @discardableResult
    public func handle(pushPayload: Data) -> Bool {
        guard let route = try? router.route(fromPushPayload: pushPayload) else { return false }
        open(route)
        return true
    }

    private func open(_ route: Route) {
        guard route != current else { return }
        navigate(to: route)
    }
}
