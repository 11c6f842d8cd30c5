/// An app's own URL scheme, checked against RFC 3986 and kept in lowercase (schemes are
/// case-insensitive): a letter, then letters, digits, `+`, `-` or `.`, at most 64 characters.
///
/// `http` and `https` are refused: those are universal links, not a scheme of the app's own.
public struct URLScheme: Sendable, Hashable, CustomStringConvertible {
    /// The scheme in lowercase, without `:`.
    public let name: String

    /// The scheme `text` names, or ``RoutingError/Code/invalidConfiguration`` naming `scheme`.
    public init(_ text: String) throws(RoutingError) {
        guard Self.isValidSyntax(text) else {
            throw RoutingError(
                .invalidConfiguration,
                "a scheme is a letter then up to 63 letters, digits, '+', '-' or '.' (RFC 3986), not '\(Clip.text(text))'",
                field: "scheme")
        }
        let name = text.lowercased()
        guard name != "http", name != "https" else {
            throw RoutingError(
                .invalidConfiguration, "'\(name)' is for universal links; choose a scheme of the app's own", field: "scheme")
        }
        self.name = name
    }

    /// Whether `text` is RFC 3986 scheme syntax of at most 64 characters.
    public static func isValidSyntax(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= 64, isLetter(first) else { return false }
        return bytes.allSatisfy { isLetter($0) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    /// The scheme.
    public var description: String { name }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }
}
