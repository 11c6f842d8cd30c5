public import Foundation

/// A type that can be a route's parameter: read from and written as decoded text.
///
/// `String`, `Int`, `Bool` and `UUID` conform; so does any `RawRepresentable` type with `String`
/// raw values that declares the conformance (`enum Tab: String, RouteParameter { case notes, files }`).
/// A type that needs more than one spelling per route uses a ``ParameterCodec`` instead.
public protocol RouteParameter: Sendable {
    /// The value `text` spells, or `nil`.
    init?(routeParameter text: String)
    /// The text of the value; reading it back must give the same value.
    var routeParameter: String { get }
}

extension String: RouteParameter {
    /// Any text.
    public init?(routeParameter text: String) { self = text }
    /// The text itself.
    public var routeParameter: String { self }
}

extension Int: RouteParameter {
    /// Decimal digits with an optional leading `-` (no `+`, at most 20 characters).
    public init?(routeParameter text: String) {
        let digits = text.utf8.first == UInt8(ascii: "-") ? text.utf8.dropFirst() : text.utf8[...]
        guard text.utf8.count <= 20, !digits.isEmpty, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
            let value = Int(text)
        else { return nil }
        self = value
    }
    /// Decimal digits, with `-` when negative.
    public var routeParameter: String { String(self) }
}

extension Bool: RouteParameter {
    /// `true` or `false`.
    public init?(routeParameter text: String) {
        switch text {
        case "true": self = true
        case "false": self = false
        default: return nil
        }
    }
    /// `true` or `false`.
    public var routeParameter: String { self ? "true" : "false" }
}

extension UUID: RouteParameter {
    /// The 36-character form, in either case.
    public init?(routeParameter text: String) {
        guard text.utf8.count == 36, let value = UUID(uuidString: text) else { return nil }
        self = value
    }
    /// The 36-character form in lowercase.
    public var routeParameter: String { uuidString.lowercased() }
}

extension RouteParameter where Self: RawRepresentable, RawValue == String {
    /// The case whose raw value is `text`.
    public init?(routeParameter text: String) { self.init(rawValue: text) }
    /// The raw value.
    public var routeParameter: String { rawValue }
}
