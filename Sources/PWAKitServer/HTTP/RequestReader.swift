import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PWAKitBundles
import PWAKitErrors

/// Reads request bodies within a size limit and decodes JSON, naming the field at fault on error.
enum RequestReader {
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            throw tooLarge(limit)
        }
        var collected = ByteBuffer()
        for try await var chunk in request.body {
            guard collected.readableBytes + chunk.readableBytes <= limit else { throw tooLarge(limit) }
            collected.writeBuffer(&chunk)
        }
        return collected
    }

    /// The deepest nesting of arrays and objects a request body may have; no request of the API needs more than 4.
    static let maximumDepth = 32

    static func json<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        try decode(T.self, from: try await collect(request, limit: limit))
    }

    /// Decodes a collected body as JSON, naming the field at fault on error.
    static func decode<T: Decodable>(_ type: T.Type, from buffer: ByteBuffer) throws -> T {
        guard nestingDepth(buffer.readableBytesView) <= maximumDepth else {
            throw APIError.invalid("body", "nests arrays and objects deeper than \(maximumDepth) levels")
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            return try decoder.decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            let path = error.fieldPath
            if path.isEmpty {
                if case .typeMismatch = error { throw APIError.invalid("body", "must be a JSON object") }
                throw APIError.invalid("body", "is not valid JSON")
            }
            throw APIError.invalid(path, error.fieldProblem)
        }
    }

    /// The deepest nesting of `[` and `{` outside strings, in one pass over the bytes (before any parser recurses).
    static func nestingDepth(_ bytes: some Sequence<UInt8>) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return deepest
    }

    /// The credentials of `Authorization: Bearer …` (scheme in any case, surrounding spaces and tabs dropped).
    /// NB: works on UTF-8 bytes; Foundation's trimming took a sixth of an authenticated request's time.
    static func bearerToken(_ request: Request) -> String? {
        guard let header = request.headers[.authorization] else { return nil }
        let bytes = header.utf8
        let scheme = "bearer ".utf8
        guard bytes.count > scheme.count,
            zip(bytes, scheme).allSatisfy({ byte, expected in asciiLowercased(byte) == expected })
        else { return nil }
        let isBlank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        guard let first = bytes.dropFirst(scheme.count).firstIndex(where: { !isBlank($0) }),
            let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return "" }
        return String(Substring(header.utf8[first...last]))
    }

    private static func asciiLowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }

    /// `(id, secret)` from `Authorization: Basic base64(id:secret)`.
    static func basicCredentials(_ request: Request) -> (id: String, secret: String)? {
        guard let header = request.headers[.authorization], header.count > 6, header.prefix(6).lowercased() == "basic ",
            let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
            let text = String(data: decoded, encoding: .utf8), let colon = text.firstIndex(of: ":")
        else { return nil }
        return (String(text[..<colon]), String(text[text.index(after: colon)...]))
    }

    private static func tooLarge(_ limit: Int) -> APIError {
        APIError(.contentTooLarge, .payloadTooLarge, "the request body must be at most \(limit) bytes", field: "body")
    }
}

/// Builds JSON responses.
enum JSONResponse {
    static func make(_ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        make(encoded: try encode(value), status: status, headers: headers)
    }

    /// A response with a body ``encode(_:)`` made earlier.
    static func make(encoded body: ByteBuffer, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "application/json"
        if fields[.cacheControl] == nil { fields[.cacheControl] = "no-store" }
        return Response(status: status, headers: fields, body: .init(byteBuffer: body))
    }

    /// The JSON every response uses: sorted keys, ISO 8601 dates, unescaped slashes.
    static func encode(_ value: some Encodable) throws -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return ByteBuffer(bytes: try encoder.encode(value))
    }

    static func noContent() -> Response { Response(status: .noContent, headers: [.cacheControl: "no-store"]) }
}
