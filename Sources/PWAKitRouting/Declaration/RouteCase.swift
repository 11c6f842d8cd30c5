/// One case of a route type with its URL form: how the case's values are captured from a
/// ``RoutePattern`` (`embed`) and read back out of a route (`extract`), so one declaration both
/// parses and prints.
///
/// ```swift
/// RouteCase(ShopRoute.item) {
///     "items"
///     Parameter(Int.self)
///     Query("tab", String?.self)
/// } extract: {
///     if case .item(let id, let tab) = $0 { (id, tab) } else { nil }
/// }
/// ```
///
/// `extract` must answer the values `embed` was given (and `nil` for every other case): the round
/// trip `parse(print(r)) == r` rests on it, and the tests of a route type should check it.
public struct RouteCase<Route>: Sendable {
    let parts: [PatternPart]
    let summary: String
    let embed: @Sendable ([Any]) -> Route?
    let extract: @Sendable (Route) -> [Any]?

    /// A case with values: `embed` is usually the case itself (`ShopRoute.item`), `extract` the
    /// `if case` that reads its values back.
    public init<each Capture>(
        _ embed: @escaping @Sendable (repeat each Capture) -> Route,
        @RoutePatternBuilder _ pattern: () -> RoutePattern<repeat each Capture>,
        extract: @escaping @Sendable (Route) -> (repeat each Capture)?
    ) {
        let pattern = pattern()
        parts = pattern.parts
        summary = pattern.summary
        self.embed = { values in
            var index = 0
            func next<Value>(_ type: Value.Type) throws(CaptureMismatch) -> Value {
                guard index < values.count, let value = values[index] as? Value else { throw CaptureMismatch() }
                index += 1
                return value
            }
            do {
                let captured = try (repeat next((each Capture).self))
                return embed(repeat each captured)
            } catch {
                return nil
            }
        }
        self.extract = { route in
            guard let captured = extract(route) else { return nil }
            var values: [Any] = []
            for value in repeat each captured { values.append(value) }
            return values
        }
    }

    /// A case without values, such as `.home` or `.settings`.
    public init(_ route: Route, @RoutePatternBuilder _ pattern: () -> RoutePattern<>) where Route: Equatable & Sendable {
        let pattern = pattern()
        parts = pattern.parts
        summary = pattern.summary
        embed = { _ in route }
        extract = { $0 == route ? [] : nil }
    }
}

/// A captured value that is not of the type the case expects (a codec answering the wrong type).
private struct CaptureMismatch: Error {}
