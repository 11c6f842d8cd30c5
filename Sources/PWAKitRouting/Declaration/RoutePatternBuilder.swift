public import Foundation

/// Builds a ``RoutePattern`` from its parts in order: string literals (one or more `/`-separated
/// segments), ``Parameter``, ``RestOfPath``, ``Query``, ``RemainingQuery`` and other patterns.
@resultBuilder
public enum RoutePatternBuilder {
    /// Literal path segments: `"items"`, or `"account/settings"` for two.
    public static func buildExpression(_ literal: String) -> RoutePattern<> {
        let segments = literal.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        for segment in segments {
            precondition(segment != "." && segment != "..", "RoutePattern: a literal segment cannot be '.' or '..'")
        }
        return .init(parts: segments.map(PatternPart.literal))
    }

    /// A path parameter.
    public static func buildExpression<Value>(_ parameter: Parameter<Value>) -> RoutePattern<Value> {
        RoutePattern<Value>(parts: [.parameter(parameter.codec)])
    }

    /// The rest of the path.
    public static func buildExpression(_ rest: RestOfPath) -> RoutePattern<String> {
        RoutePattern<String>(parts: [.restOfPath])
    }

    /// A named query item.
    public static func buildExpression<Value>(_ query: Query<Value>) -> RoutePattern<Value> {
        RoutePattern<Value>(parts: [.query(query.field)])
    }

    /// The query items the pattern does not name.
    public static func buildExpression(_ remaining: RemainingQuery) -> RoutePattern<[URLQueryItem]> {
        RoutePattern<[URLQueryItem]>(parts: [.remainingQuery])
    }

    /// A pattern declared elsewhere, e.g. a prefix several routes share.
    public static func buildExpression<each Capture>(_ pattern: RoutePattern<repeat each Capture>) -> RoutePattern<
        repeat each Capture
    > {
        pattern
    }

    /// The first part.
    public static func buildPartialBlock<each Capture>(first: RoutePattern<repeat each Capture>) -> RoutePattern<
        repeat each Capture
    > {
        first
    }

    /// The parts so far followed by the next.
    public static func buildPartialBlock<each Capture, each Next>(
        accumulated: RoutePattern<repeat each Capture>, next: RoutePattern<repeat each Next>
    ) -> RoutePattern<repeat each Capture, repeat each Next> {
        accumulated.followed(by: next)
    }

    /// No parts: the root path, `myapp://` or `https://example.com/`.
    public static func buildBlock() -> RoutePattern<> {
        .init(parts: [])
    }
}
