public import Foundation
import PWAKitErrors

extension Router {
    /// The route a push notification's tap opens: the JSON payload's `route` string, parsed.
    ///
    /// Errors are ``RoutingError/Code/invalidPushPayload`` with `field` naming what is at fault:
    /// the payload itself (too large, not a JSON object) or `route` (absent, not a string, or a
    /// URL that is not a route, whose error is the `underlying` one).
    public func route(fromPushPayload data: Data) throws(RoutingError) -> Route {
        let limit = configuration.limits.maximumPushPayloadSize
        guard data.count <= limit else {
            throw RoutingError(.invalidPushPayload, "the payload is \(data.count) bytes; the limit is \(limit)")
        }
        let payload: PushRoutePayload
        do {
            payload = try JSONDecoder().decode(PushRoutePayload.self, from: data)
        } catch let error as DecodingError {
            let field = error.fieldPath
            throw RoutingError(
                .invalidPushPayload, "\(field.isEmpty ? "the payload" : field) \(error.fieldProblem)",
                field: field.isEmpty ? nil : field, underlying: error)
        } catch {
            throw RoutingError(.invalidPushPayload, "the payload cannot be read", underlying: error)
        }
        do {
            return try route(from: payload.route)
        } catch {
            throw RoutingError(.invalidPushPayload, "route: \(error.message)", field: "route", underlying: error)
        }
    }
}
