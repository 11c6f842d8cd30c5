/// Why a JSON document could not be parsed, and where.
public struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, as a stable code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case unexpectedEnd = "unexpected_end"
            case unexpectedCharacter = "unexpected_character"
            case invalidUTF8 = "invalid_utf8"
            case invalidEscape = "invalid_escape"
            case controlCharacter = "control_character"
            case numberOutOfRange = "number_out_of_range"
            case invalidNumber = "invalid_number"
            case duplicateKey = "duplicate_key"
            case tooDeep = "too_deep"
            case trailingCharacters = "trailing_characters"
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The text ended in the middle of a value.
        public static let unexpectedEnd = Code(.unexpectedEnd)
        /// A character that JSON does not allow at that place.
        public static let unexpectedCharacter = Code(.unexpectedCharacter)
        /// Bytes that are not valid UTF-8.
        public static let invalidUTF8 = Code(.invalidUTF8)
        /// A backslash escape JSON does not define, or a lone surrogate.
        public static let invalidEscape = Code(.invalidEscape)
        /// An unescaped control character inside a string.
        public static let controlCharacter = Code(.controlCharacter)
        /// A number too large for a double.
        public static let numberOutOfRange = Code(.numberOutOfRange)
        /// A malformed number.
        public static let invalidNumber = Code(.invalidNumber)
        /// The same key twice in one object (JavaScript keeps the last, Foundation the first).
        public static let duplicateKey = Code(.duplicateKey)
        /// Nesting deeper than the parser's limit.
        public static let tooDeep = Code(.tooDeep)
        /// More text after the document.
        public static let trailingCharacters = Code(.trailingCharacters)

        /// The stable string form, e.g. `duplicate_key`.
        public var rawValue: String { base.rawValue }
        /// The stable string form.
        public var description: String { base.rawValue }
    }

    /// What went wrong.
    public var code: Code
    /// A human explanation.
    public var message: String
    /// The byte offset at which the problem was found.
    public var offset: Int
    /// The path to the value at fault, like `payload.items[3].name` (empty for the root).
    public var path: String
    /// The line (1-based) of ``offset``.
    public var line: Int
    /// The column (1-based, in Unicode scalars, as an editor counts) of ``offset``.
    public var column: Int

    /// Creates an error.
    public init(code: Code, message: String, offset: Int, path: String, line: Int = 1, column: Int = 1) {
        self.code = code
        self.message = message
        self.offset = offset
        self.path = path
        self.line = line
        self.column = column
    }

    /// `path: message (at byte offset)`.
    public var description: String {
        let location = path.isEmpty ? "" : "\(path): "
        return "\(location)\(message) (at byte \(offset))"
    }
}
