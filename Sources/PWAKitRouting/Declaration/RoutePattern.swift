/// The URL form of one route case: literal path segments, typed parameters, an optional rest of
/// the path and query items, capturing `Capture…` in the order they are declared.
///
/// Write one with a ``RoutePatternBuilder`` block (in ``RouteCase``) or ``RoutePattern/init(_:)``:
///
/// ```swift
/// RoutePattern {
///     "items"
///     Parameter(Int.self)
///     Query("tab", String?.self)
/// }   // RoutePattern<Int, String?>: items/42?tab=notes
/// ```
///
/// A pattern that is declared wrongly — a literal that is empty, `.` or `..`, a path part after
/// ``RestOfPath``, two ``RemainingQuery`` parts, a query name used twice — stops the program when
/// it is built: that is a mistake in the source, found the first time the routes are made.
public struct RoutePattern<each Capture>: Sendable {
    let parts: [PatternPart]

    init(parts: [PatternPart]) {
        self.parts = parts
    }

    /// The pattern a builder block declares.
    public init(@RoutePatternBuilder _ build: () -> RoutePattern<repeat each Capture>) {
        self = build()
    }

    /// This pattern followed by `other`: the parts and captures of both, in order.
    func followed<each Next>(by other: RoutePattern<repeat each Next>) -> RoutePattern<repeat each Capture, repeat each Next> {
        var parts = self.parts
        for part in other.parts {
            Self.check(part, after: parts)
            parts.append(part)
        }
        return RoutePattern<repeat each Capture, repeat each Next>(parts: parts)
    }

    /// The declaration rules, checked as each part is added.
    private static func check(_ part: PatternPart, after parts: [PatternPart]) {
        if part.isPath {
            precondition(
                !parts.contains { if case .restOfPath = $0 { true } else { false } },
                "RoutePattern: RestOfPath must be the last path part")
        }
        switch part {
        case .query(let field):
            precondition(
                !parts.contains { if case .query(let other) = $0 { other.name == field.name } else { false } },
                "RoutePattern: the query item '\(field.name)' is declared twice")
        case .remainingQuery:
            precondition(
                !parts.contains { if case .remainingQuery = $0 { true } else { false } },
                "RoutePattern: RemainingQuery is declared twice")
        case .literal, .parameter, .restOfPath:
            break
        }
    }

    /// The description used in messages: `items/{Int}/{...}?tab`.
    var summary: String {
        var path: [String] = []
        var query: [String] = []
        for part in parts {
            switch part {
            case .literal(let text): path.append(text)
            case .parameter(let codec): path.append("{\(codec.name)}")
            case .restOfPath: path.append("{...}")
            case .query(let field): query.append(field.name)
            case .remainingQuery: query.append("...")
            }
        }
        return path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
    }
}
