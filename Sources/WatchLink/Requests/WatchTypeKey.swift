/// The stable wire identifier of a request type.
public struct WatchTypeKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The key's text, for example `com.example.fetch-user` or `MyApp.FetchUser`.
    public let rawValue: String

    /// Creates a key from its text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Decodes a key from a bare string.
    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the key as a bare string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// The key's text.
    public var description: String { rawValue }

    /// Checks the key is usable on the wire: 1–256 printable ASCII characters.
    func validate() throws(WatchLinkError) {
        guard !rawValue.isEmpty, rawValue.utf8.count <= 256,
            rawValue.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else {
            throw WatchLinkError(
                .invalidArgument, "type key must be 1-256 printable ASCII characters without spaces",
                details: ["field": "typeKey", "value": String(rawValue.prefix(64))])
        }
    }
}
