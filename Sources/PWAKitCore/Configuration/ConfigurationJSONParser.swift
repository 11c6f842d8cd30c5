/// Reads configuration and manifest files into ``ConfigurationJSON`` through the one strict JSON
/// reader (`JSONReader`, as ``JSONParser`` does), keeping what the validator needs: members in
/// order with their lines, duplicate keys (the validator reports them), numbers as written. A
/// UTF-8 byte order mark is tolerated, as editors write one.
enum ConfigurationJSONParser {
    /// Where and why a document failed to parse.
    struct SyntaxError: Error, Equatable {
        var message: String
        var line: Int
        var column: Int

        /// "line 3, column 14: expected ',' or '}'".
        var description: String { "line \(line), column \(column): \(message)" }
    }

    /// The deepest nesting of arrays and objects accepted.
    static let maximumDepth = 64

    /// Parses one JSON document; whitespace may surround it, nothing else may follow.
    static func parse(_ bytes: some Sequence<UInt8>) throws(SyntaxError) -> ConfigurationJSON {
        let bytes = Array(bytes)
        let result = bytes.withUnsafeBufferPointer { buffer -> Result<ConfigurationJSON, JSONParseError> in
            var reader = JSONReader(bytes: buffer, maxDepth: maximumDepth, builder: ConfigurationJSONBuilder())
            do throws(JSONParseError) {
                return .success(try reader.readDocument(allowingByteOrderMark: true))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(let error): throw SyntaxError(message: error.message, line: error.line, column: error.column)
        }
    }
}

/// Builds ``ConfigurationJSON``: members in order with their lines, duplicates kept, numbers as written.
struct ConfigurationJSONBuilder: JSONTreeBuilder {
    func makeObject() -> [ConfigurationJSON.Member] { [] }

    func add(_ key: String, _ value: ConfigurationJSON, line: Int, to object: inout [ConfigurationJSON.Member]) -> Bool {
        object.append(.init(key: key, value: value, line: line))
        return true
    }

    func finish(_ object: [ConfigurationJSON.Member]) -> ConfigurationJSON { .object(object) }
    func array(_ elements: [ConfigurationJSON]) -> ConfigurationJSON { .array(elements) }
    func string(_ text: String) -> ConfigurationJSON { .string(text) }
    func bool(_ value: Bool) -> ConfigurationJSON { .bool(value) }
    func null() -> ConfigurationJSON { .null }

    func number(_ text: UnsafeBufferPointer<UInt8>, isInteger: Bool) -> ConfigurationJSON? {
        .number(String(decoding: text, as: UTF8.self))
    }
}
