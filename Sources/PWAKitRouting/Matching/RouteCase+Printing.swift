import Foundation

extension RouteCase {
    /// The path and query of a route whose values `extract` read, or
    /// ``RoutingError/Code/unprintableRoute`` naming the value that has no URL form.
    func print(_ values: [Any]) throws(RoutingError) -> RoutePath {
        var segments: [String] = []
        var named: [URLQueryItem] = []
        var remaining: [URLQueryItem] = []
        var next = 0
        func take() throws(RoutingError) -> Any {
            guard next < values.count else {
                throw RoutingError(.unprintableRoute, "\(summary): extract gave fewer values than the pattern captures")
            }
            defer { next += 1 }
            return values[next]
        }
        for part in parts {
            switch part {
            case .literal(let text):
                segments.append(text)
            case .parameter(let codec):
                let field = "path[\(segments.count)]"
                guard let text = codec.print(try take()), Self.isPrintableSegment(text) else {
                    throw RoutingError(
                        .unprintableRoute,
                        "\(summary): the \(codec.name) has no path form (empty, '.', '..' or a control character)",
                        field: field)
                }
                segments.append(text)
            case .restOfPath:
                guard let rest = try take() as? String else {
                    throw RoutingError(.unprintableRoute, "\(summary): the rest of the path is not a String")
                }
                // NB: split on bytes, as links are read: a `/` before a combining mark still separates.
                let pieces = rest.isEmpty ? [] : rest.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
                for piece in pieces {
                    let segment = String(decoding: piece, as: UTF8.self)
                    guard segment != ".", segment != "..", !PercentEncoding.containsControlCharacter(segment) else {
                        throw RoutingError(
                            .unprintableRoute, "\(summary): the path cannot hold '.' or '..' segments or control characters",
                            field: "path[\(segments.count)]")
                    }
                    segments.append(segment)
                }
            case .query(let field):
                switch field.print(try take()) {
                case .omitted:
                    break
                case .text(let text) where !PercentEncoding.containsControlCharacter(text, allowingLineBreaks: true):
                    named.append(URLQueryItem(name: field.name, value: text))
                case .text, .unprintable:
                    throw RoutingError(
                        .unprintableRoute, "\(summary): the \(field.typeName) has no query form", field: "query.\(field.name)")
                }
            case .remainingQuery:
                guard let items = try take() as? [URLQueryItem] else {
                    throw RoutingError(.unprintableRoute, "\(summary): the remaining query is not [URLQueryItem]")
                }
                for item in items {
                    try check(item)
                    remaining.append(item)
                }
            }
        }
        return RoutePath(segments: segments, query: named + remaining)
    }

    /// An item of the remaining query that reads back as itself.
    private func check(_ item: URLQueryItem) throws(RoutingError) {
        let field = "query.\(item.name)"
        for part in parts {
            if case .query(let named) = part, named.name == item.name {
                throw RoutingError(.unprintableRoute, "\(summary) reads '\(item.name)' itself", field: field)
            }
        }
        guard !(item.name.isEmpty && item.value == nil) else {
            throw RoutingError(.unprintableRoute, "a query item with neither name nor value cannot be written", field: "query")
        }
        guard !PercentEncoding.containsControlCharacter(item.name),
            !PercentEncoding.containsControlCharacter(item.value ?? "", allowingLineBreaks: true)
        else {
            throw RoutingError(.unprintableRoute, "a query item cannot hold control characters", field: field)
        }
    }

    /// Whether a parameter's text can be a path segment: not empty, `.` or `..`, no control character.
    static func isPrintableSegment(_ text: String) -> Bool {
        !text.isEmpty && text != "." && text != ".." && !PercentEncoding.containsControlCharacter(text)
    }
}
