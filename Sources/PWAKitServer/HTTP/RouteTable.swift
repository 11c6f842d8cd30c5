import Foundation
import HTTPTypes
import Hummingbird

/// Registers routes on a router and remembers them, so the OpenAPI document can be checked
/// against exactly what the server answers.
final class RouteTable {
    private(set) var routes: [ServerRoute] = []
    let router: Router<ServerRequestContext>

    init(router: Router<ServerRequestContext>) { self.router = router }

    /// Adds a route; `path` uses OpenAPI's `{name}` form for parameters.
    func add(
        _ method: HTTPRequest.Method, _ path: String,
        _ handler: @escaping @Sendable (Request, ServerRequestContext) async throws -> Response
    ) {
        routes.append(ServerRoute(method: method.rawValue, path: path))
        router.on(Self.routerPath(path), method: method) { request, context in try await handler(request, context) }
    }

    /// Answers every other common method on each known path with 405 `method_not_allowed` and `Allow`;
    /// call once, after the last ``add(_:_:_:)``.
    func answerOtherMethods() {
        let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete]
        for (path, served) in Dictionary(grouping: routes, by: \.path) {
            let allowed = Set(served.map(\.method))
            let allow = allowed.sorted().joined(separator: ", ")
            for method in methods where !allowed.contains(method.rawValue) {
                router.on(Self.routerPath(path), method: method) { _, _ -> Response in
                    throw APIError(
                        .methodNotAllowed, .methodNotAllowed, "\(path) answers \(allow) only", headers: [.allow: allow])
                }
            }
        }
    }

    /// Hummingbird's form of an OpenAPI path: `{name}` becomes `:name`.
    private static func routerPath(_ path: String) -> RouterPath {
        RouterPath(
            path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
                segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : String(segment)
            }.joined(separator: "/"))
    }
}

/// One route the server answers: an HTTP method and an OpenAPI-style path.
public struct ServerRoute: Hashable, Sendable, CustomStringConvertible {
    /// The method, upper case.
    public let method: String
    /// The path with `{parameter}` placeholders.
    public let path: String
    /// `METHOD path`.
    public var description: String { "\(method) \(path)" }
}
