import Foundation

extension RouteCase {
    /// The route `path` spells under this case, or how far it got.
    func match(_ path: RoutePath) -> Result<Route, MatchFailure> {
        var slots = [Any?](repeating: nil, count: parts.count)
        if let failure = matchSegments(path.segments, into: &slots) { return .failure(failure) }
        if let failure = matchQuery(path.query, depth: path.segments.count + 1, into: &slots) { return .failure(failure) }
        let values = zip(parts, slots).compactMap { part, slot in part.captures ? slot : nil }
        guard values.count == parts.count(where: \.captures), let route = embed(values) else {
            return .failure(MatchFailure(depth: 0, error: nil))
        }
        return .success(route)
    }

    private func matchSegments(_ segments: [String], into slots: inout [Any?]) -> MatchFailure? {
        var cursor = 0
        for (index, part) in parts.enumerated() {
            switch part {
            case .literal(let text):
                guard cursor < segments.count, segments[cursor] == text else { return MatchFailure(depth: cursor, error: nil) }
                cursor += 1
            case .parameter(let codec):
                guard cursor < segments.count, !(cursor == segments.count - 1 && segments[cursor].isEmpty) else {
                    return MatchFailure(depth: cursor, error: nil)
                }
                let segment = segments[cursor]
                guard !segment.isEmpty, segment != ".", segment != "..", let value = codec.parse(segment) else {
                    let shown = segment.isEmpty ? "an empty segment" : "'\(Clip.text(segment))'"
                    return MatchFailure(
                        depth: cursor,
                        error: RoutingError(
                            .invalidParameter, "\(shown) is not a valid \(codec.name) in \(summary)", field: "path[\(cursor)]"))
                }
                slots[index] = value
                cursor += 1
            case .restOfPath:
                if let dot = segments[cursor...].firstIndex(where: { $0 == "." || $0 == ".." }) {
                    return MatchFailure(
                        depth: dot,
                        error: RoutingError(.invalidParameter, "the path cannot hold '.' or '..' segments", field: "path[\(dot)]")
                    )
                }
                slots[index] = segments[cursor...].joined(separator: "/")
                cursor = segments.count
            case .query, .remainingQuery:
                continue
            }
        }
        // NB: one trailing empty segment is a trailing slash, which a link may or may not have.
        if cursor < segments.count, !(cursor == segments.count - 1 && segments[cursor].isEmpty) {
            return MatchFailure(depth: cursor, error: nil)
        }
        return nil
    }

    private func matchQuery(_ query: [URLQueryItem], depth: Int, into slots: inout [Any?]) -> MatchFailure? {
        var named = Set<String>()
        for part in parts { if case .query(let field) = part { named.insert(field.name) } }
        for (index, part) in parts.enumerated() {
            switch part {
            case .query(let field):
                let items = query.filter { $0.name == field.name }
                let fieldPath = "query.\(field.name)"
                guard items.count <= 1 else {
                    return MatchFailure(
                        depth: depth,
                        error: RoutingError(.duplicateQueryItem, "'\(field.name)' appears \(items.count) times", field: fieldPath)
                    )
                }
                if let item = items.first {
                    guard let value = field.parse(item.value ?? "") else {
                        return MatchFailure(
                            depth: depth,
                            error: RoutingError(
                                .invalidQueryItem, "'\(Clip.text(item.value ?? ""))' is not a valid \(field.typeName)",
                                field: fieldPath))
                    }
                    slots[index] = value
                } else if let absent = field.absent {
                    slots[index] = absent()
                } else {
                    return MatchFailure(
                        depth: depth,
                        error: RoutingError(
                            .missingQueryItem, "\(summary) needs the query item '\(field.name)'", field: fieldPath))
                }
            case .remainingQuery:
                slots[index] = query.filter { !named.contains($0.name) }
            case .literal, .parameter, .restOfPath:
                continue
            }
        }
        return nil
    }
}
