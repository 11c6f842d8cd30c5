public import Foundation
public import PWAKitCore

/// Bytes on the wire as standard base64 (RFC 4648, padding required, no line breaks).
public struct Base64Data: Codable, Sendable, Hashable, SchemaDescribed {
    /// The bytes.
    public var bytes: Data

    /// Wraps `bytes`.
    public init(_ bytes: Data) { self.bytes = bytes }

    /// Decodes a base64 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let bytes = Data(base64Encoded: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected standard base64")
        }
        self.bytes = bytes
    }

    /// Encodes as base64.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(bytes.base64EncodedString())
    }

    /// A `base64` string.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .string(format: "base64") }

    /// No bytes.
    public static var schemaPlaceholder: Base64Data { Base64Data(Data()) }
}
