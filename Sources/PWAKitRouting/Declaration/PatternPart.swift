/// One element of a ``RoutePattern``, with its codec erased to `Any`.
enum PatternPart: Sendable {
    /// A path segment that must equal this decoded text.
    case literal(String)
    /// A path segment read and written by a codec.
    case parameter(ErasedCodec)
    /// Every path segment left, joined with `/`.
    case restOfPath
    /// One named query item.
    case query(QueryField)
    /// Every query item no ``query(_:)`` part of the pattern names.
    case remainingQuery

    /// Whether the part matches path segments (as opposed to query items).
    var isPath: Bool {
        switch self {
        case .literal, .parameter, .restOfPath: true
        case .query, .remainingQuery: false
        }
    }

    /// Whether the part yields a value to the route.
    var captures: Bool {
        if case .literal = self { return false }
        return true
    }
}
