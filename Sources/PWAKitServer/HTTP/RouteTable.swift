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
        let hummingbirdPath = path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : String(segment)
        }.joined(separator: "/")
        router.on(RouterPath(hummingbirdPath), method: method) { request, context in try await handler(request, context) }
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
