public import Foundation

/// A strict JSON parser (RFC 8259) that produces ``JSONValue``.
///
/// Unlike `JSONDecoder` it rejects duplicate keys instead of silently keeping one of them,
/// bounds nesting depth, refuses invalid UTF-8 and lone surrogates, and reports the path, line
/// and column of the value at fault. The configuration reader reads through the same
/// `JSONReader` into a tree that keeps positions and duplicate keys.
public struct JSONParser: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int

    /// Creates a parser.
    public init(maxDepth: Int = 128) {
        self.maxDepth = maxDepth
    }

    /// Parses `data` with the default limits.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        try JSONParser().parse(data)
    }

    /// Parses `text` with the default limits.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        var text = text
        var result: Result<JSONValue, JSONParseError> = .success(.null)
        text.withUTF8 { bytes in
            do throws(JSONParseError) {
                result = .success(try JSONParser().parse(bytes: UnsafeRawBufferPointer(bytes)))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a whole document.
    public func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        var result: Result<JSONValue, JSONParseError> = .success(.null)
        data.withUnsafeBytes { raw in
            do throws(JSONParseError) {
                result = .success(try parse(bytes: raw))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }

    /// Parses a whole document held in `bytes`.
    public func parse(bytes: UnsafeRawBufferPointer) throws(JSONParseError) -> JSONValue {
        var reader = JSONReader(bytes: bytes.bindMemory(to: UInt8.self), maxDepth: maxDepth, builder: JSONValueBuilder())
        return try reader.readDocument(allowingByteOrderMark: false)
    }
}
