public import Foundation

/// The encoding of request and response payloads: a compact, self-describing binary layout
/// (``PayloadFormat``) made for the link's round trips, cheaper to write and read than JSON.
///
/// Typed requests and handlers use it on their own; a type-erased handler
/// (``HandlerRegistry/registerErased(_:handler:)``) receives a payload in it and decodes it with
/// ``decode(_:from:field:)``, which also reads a JSON payload (from a peer of an earlier version,
/// or one written by hand), told apart by its first byte. A typed handler answers a JSON request
/// in JSON; a request this version sends is in this encoding, which a peer of an earlier version
/// cannot read (its handler fails with `decoding_failed`), so both devices run this version.
///
/// Like JSON without sorted keys, a dictionary's entries are written in its own order, so equal
/// values need not encode to equal bytes.
public enum WatchPayload {
    /// Encodes `value`.
    ///
    /// - Throws: `encoding_failed` when the value's `encode(to:)` throws or misuses its encoder.
    public static func encode<T: Encodable>(_ value: T) throws(WatchLinkError) -> Data {
        let root = PayloadEncodingNode(parent: nil, key: nil)
        // NB: room for a small value's entries, so they are not moved as the first few grow.
        root.content.reserveCapacity(64)
        do {
            if PayloadFormat.isScalar(T.self) {
                root.begin(.single, reusable: false)
                try root.write(value, key: nil)
            } else {
                try value.encode(to: root)
                guard root.kind != .empty else {
                    throw EncodingError.invalidValue(
                        value, .init(codingPath: [], debugDescription: "top-level \(T.self) did not encode any values"))
                }
            }
            return try root.payload(marker: PayloadFormat.marker, version: PayloadFormat.version)
        } catch {
            throw WatchLinkError(.encodingFailed, "cannot encode \(T.self): \(error)")
        }
    }

    /// Encodes `response` in the encoding of `request`: JSON for a JSON request (from a peer of an
    /// earlier version, which reads only JSON payloads), this encoding otherwise.
    /// A fire-and-forget request's answer, ``WatchAck``, is the same bytes every time: they are
    /// encoded once (``WireAcknowledgements/value``), not for each answer.
    static func encode<T: Encodable>(_ response: T, answering request: Data) throws(WatchLinkError) -> Data {
        guard let first = request.first, first != PayloadFormat.marker else {
            if T.self == WatchAck.self { return WireAcknowledgements.value }
            return try encode(response)
        }
        return try WireCodec.encodeValue(response)
    }

    /// Decodes a `T` from a payload in this encoding or in JSON.
    ///
    /// - Throws: `decoding_failed`, with the path of the field at fault under `field` in
    ///   `details["field"]` (for example `payload.items[2].name`).
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, field: String = "payload") throws(WatchLinkError)
        -> T
    {
        try WireCodec.decodeValue(T.self, from: data, field: field)
    }

    /// Decodes a `T` from a binary payload (marker and version included), throwing `DecodingError`.
    static func decodeBinary<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        guard bytes.count >= 2, bytes[0] == PayloadFormat.marker else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "not a binary payload"))
        }
        guard bytes[1] == PayloadFormat.version else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: [],
                    debugDescription:
                        "payload format version \(bytes[1]) is not supported; this build reads \(PayloadFormat.version)"))
        }
        let root = PayloadDecodingNode(bytes: bytes, start: 2, end: bytes.count, parent: nil, key: nil)
        var cursor = PayloadCursor(bytes: bytes, offset: 2, end: bytes.count)
        try root.guarded(nil) { () throws(PayloadCursor.Malformed) in
            try cursor.skipValue()
            guard cursor.offset == bytes.count else {
                throw PayloadCursor.Malformed(message: "\(bytes.count - cursor.offset) bytes after the value")
            }
        }
        if PayloadFormat.isScalar(T.self) {
            return try root.decode(T.self, at: 2, key: nil)
        }
        return try T(from: root)
    }
}
