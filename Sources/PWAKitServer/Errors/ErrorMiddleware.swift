import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Turns every error into the uniform JSON error body: ``APIError`` as it is, Hummingbird's own
/// errors (unknown route, oversized body) with their status, anything else as a logged 500.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            return try error.response(from: request, context: context)
        } catch let error as any HTTPResponseError {
            let mapped: APIError =
                switch error.status {
                case .notFound: .notFound("route")
                case .contentTooLarge: APIError(.contentTooLarge, .payloadTooLarge, "the request body is too large")
                case .methodNotAllowed: APIError(.methodNotAllowed, .methodNotAllowed, "method not allowed")
                case .badRequest: APIError(.badRequest, .invalidRequest, "the request is malformed")
                case .unauthorized: .unauthorized()
                default: APIError(error.status, .internalError, "the request failed")
                }
            return try mapped.response(from: request, context: context)
        } catch {
            context.logger.error(
                "request failed", metadata: ["error": "\(String(reflecting: error))", "path": "\(request.uri.path)"])
            return try APIError(.internalServerError, .internalError, "internal error").response(from: request, context: context)
        }
    }
}
