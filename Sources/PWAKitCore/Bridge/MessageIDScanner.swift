/// Finds a message's *readable id* without trusting the rest of the message.
///
/// A readable id is a top-level string member named `id` that occurs exactly once. The scan
/// walks only the top level of the object, skipping nested values by bracket matching, so a
/// malformed or out-of-range value elsewhere in the message does not hide the id. A key
/// written with escapes (`"\u0069d"`) is still `id`, as it is to JavaScript.
///
/// NB: `JSONDecoder` keeps the first of duplicate keys and JavaScript the last; a message
/// with two `id`s therefore has no readable id at all rather than one we might guess wrong.
package enum MessageIDScanner {
    /// The readable id in `bytes`, or `nil` when there is none.
    package static func readableID(in bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var reader = JSONReader(bytes: bytes, maxDepth: 1, builder: JSONValueBuilder())
        reader.skipWhitespace()
        guard reader.index < bytes.count else { return nil }
        if bytes[reader.index] == UInt8(ascii: "\"") {
            // The page posted the message as a JSON string: scan the text inside it.
            guard var text = try? reader.readString() else { return nil }
            return text.withUTF8 { inner in
                var innerReader = JSONReader(bytes: inner, maxDepth: 1, builder: JSONValueBuilder())
                return scanObject(&innerReader)
            }
        }
        return scanObject(&reader)
    }

    private static func scanObject(_ reader: inout JSONReader<JSONValueBuilder>) -> String? {
        let bytes = reader.bytes
        reader.skipWhitespace()
        guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: "{") else { return nil }
        reader.index += 1
        var found: String?
        var idCount = 0
        while true {
            reader.skipWhitespace()
            guard reader.index < bytes.count else { return nil }
            if bytes[reader.index] == UInt8(ascii: "}") { break }
            guard bytes[reader.index] == UInt8(ascii: "\""), let isID = keyIsID(&reader) else {
                return nil
            }
            reader.skipWhitespace()
            guard reader.index < bytes.count, bytes[reader.index] == UInt8(ascii: ":") else { return nil }
            reader.index += 1
            reader.skipWhitespace()
            guard reader.index < bytes.count else { return nil }
            if isID {
                idCount += 1
                if bytes[reader.index] == UInt8(ascii: "\"") {
                    found = try? reader.readString()
                    if found == nil { return nil }
                } else {
                    found = nil
                    guard skipValue(&reader) else { return nil }
                }
            } else {
                guard skipValue(&reader) else { return nil }
            }
            reader.skipWhitespace()
            guard reader.index < bytes.count else { return nil }
            if bytes[reader.index] == UInt8(ascii: ",") {
                reader.index += 1
            } else if bytes[reader.index] != UInt8(ascii: "}") {
                return nil
            }
        }
        return idCount == 1 ? found : nil
    }

    /// Reads an object key and tells whether it is `id`; `nil` when the key is malformed.
    ///
    /// NB: plain keys are compared in place, without building a `String`; only a key with
    /// escapes is decoded, so that `"\u0069d"` is still recognised.
    private static func keyIsID(_ reader: inout JSONReader<JSONValueBuilder>) -> Bool? {
        let bytes = reader.bytes
        let start = reader.index + 1
        var end = start
        while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\") { end += 1 }
        guard end < bytes.count else { return nil }
        if bytes[end] == UInt8(ascii: "\"") {
            reader.index = end + 1
            return end - start == 2 && bytes[start] == UInt8(ascii: "i") && bytes[start + 1] == UInt8(ascii: "d")
        }
        guard let key = try? reader.readString() else { return nil }
        return key == "id"
    }

    /// Skips one value leniently; `false` when the text ends before the value does.
    private static func skipValue(_ reader: inout JSONReader<JSONValueBuilder>) -> Bool {
        let bytes = reader.bytes
        var depth = 0
        while reader.index < bytes.count {
            let byte = bytes[reader.index]
            switch byte {
            case UInt8(ascii: "\""):
                guard skipString(&reader) else { return false }
                if depth == 0 { return true }
                continue
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                if depth == 0 { return true }
                depth -= 1
                if depth == 0 {
                    reader.index += 1
                    return true
                }
            case UInt8(ascii: ","):
                if depth == 0 { return true }
            default:
                break
            }
            reader.index += 1
        }
        return false
    }

    private static func skipString(_ reader: inout JSONReader<JSONValueBuilder>) -> Bool {
        let bytes = reader.bytes
        reader.index += 1
        while reader.index < bytes.count {
            switch bytes[reader.index] {
            case UInt8(ascii: "\\"): reader.index += 2
            case UInt8(ascii: "\""):
                reader.index += 1
                return true
            default: reader.index += 1
            }
        }
        return false
    }
}
