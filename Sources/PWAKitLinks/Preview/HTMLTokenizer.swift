/// A tokenizer for the parts of HTML a link preview reads: start tags with their attributes, end
/// tags, and the text of `<title>` and `<script>` — after the WHATWG tokenizer's rules for tags,
/// attributes (quoted, unquoted, bare, duplicates: the first wins), comments, doctypes, raw-text
/// elements (`script`, `style`) and escapable raw text (`title`, `textarea`), and character
/// references. It never fails: malformed markup yields what a browser would mostly see, and work
/// is linear in the input.
struct HTMLTokenizer {
    enum Token: Equatable {
        case start(name: String, attributes: [String: String])
        case end(name: String)
        /// The text inside a raw-text or escapable raw-text element, by the element's name.
        case text(element: String, text: String)
    }

    private let bytes: [UInt8]
    private var index = 0
    /// The text of the raw-text element whose start tag was just returned.
    private var pending: Token?

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Every token, in order.
    static func tokens(_ text: String) -> [Token] {
        var tokenizer = HTMLTokenizer(Array(text.utf8))
        var tokens: [Token] = []
        while let token = tokenizer.next() { tokens.append(token) }
        return tokens
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    mutating func next() -> Token? {
        if let pending {
            self.pending = nil
            return pending
        }
        while index < bytes.count {
            guard bytes[index] == 0x3C, index + 1 < bytes.count else {  // '<'
                index += 1
                continue
            }
            let following = bytes[index + 1]
            if following == 0x21 {  // '<!'
                skipMarkupDeclaration()
                continue
            }
            if following == 0x2F, index + 2 < bytes.count, Self.isLetter(bytes[index + 2]) {  // '</x'
                index += 2
                let name = readName()
                skip(to: 0x3E)
                return .end(name: name)
            }
            if Self.isLetter(following) {
                index += 1
                let name = readName()
                let attributes = readAttributes()
                if ["script", "style", "title", "textarea"].contains(name) {
                    let raw = rawText(until: name)
                    let text = name == "title" || name == "textarea" ? CharacterReferences.decode(raw) : raw
                    // NB: the start tag first, then its text; the caller sees both.
                    pending = .text(element: name, text: text)
                }
                return .start(name: name, attributes: attributes)
            }
            index += 1
        }
        return nil
    }

    /// `<!-- … -->`, `<!DOCTYPE …>`, `<![CDATA[ … ]]>`: skipped.
    private mutating func skipMarkupDeclaration() {
        if bytes[index...].starts(with: "<!--".utf8) {
            index += 4
            while index < bytes.count, !bytes[index...].starts(with: "-->".utf8) { index += 1 }
            index = min(bytes.count, index + 3)
        } else {
            skip(to: 0x3E)
        }
    }

    private mutating func skip(to byte: UInt8) {
        while index < bytes.count, bytes[index] != byte { index += 1 }
        index = min(bytes.count, index + 1)
    }

    private mutating func readName() -> String {
        var name: [UInt8] = []
        while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != 0x2F, bytes[index] != 0x3E {
            name.append(Self.lower(bytes[index]))
            index += 1
        }
        return String(decoding: name, as: UTF8.self)
    }

    private mutating func readAttributes() -> [String: String] {
        var attributes: [String: String] = [:]
        while index < bytes.count {
            while index < bytes.count, Self.isSpace(bytes[index]) || bytes[index] == 0x2F { index += 1 }
            guard index < bytes.count else { break }
            if bytes[index] == 0x3E {
                index += 1
                break
            }
            var name: [UInt8] = []
            repeat {
                name.append(Self.lower(bytes[index]))
                index += 1
            } while index < bytes.count && !Self.isSpace(bytes[index]) && bytes[index] != 0x3D && bytes[index] != 0x3E
                && bytes[index] != 0x2F
            while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
            var value: [UInt8] = []
            if index < bytes.count, bytes[index] == 0x3D {  // '='
                index += 1
                while index < bytes.count, Self.isSpace(bytes[index]) { index += 1 }
                if index < bytes.count, bytes[index] == 0x22 || bytes[index] == 0x27 {
                    let quote = bytes[index]
                    index += 1
                    while index < bytes.count, bytes[index] != quote {
                        value.append(bytes[index])
                        index += 1
                    }
                    index = min(bytes.count, index + 1)
                } else {
                    while index < bytes.count, !Self.isSpace(bytes[index]), bytes[index] != 0x3E {
                        value.append(bytes[index])
                        index += 1
                    }
                }
            }
            let key = String(decoding: name, as: UTF8.self)
            if attributes[key] == nil {
                attributes[key] = CharacterReferences.decode(String(decoding: value, as: UTF8.self))
            }
        }
        return attributes
    }

    /// The text up to `</name` (case-insensitive), which it consumes with its tag.
    private mutating func rawText(until name: String) -> String {
        let closing = Array("</\(name)".utf8)
        let start = index
        while index < bytes.count {
            if bytes[index] == 0x3C, index + closing.count <= bytes.count,
                zip(bytes[index..<(index + closing.count)], closing).allSatisfy({ Self.lower($0) == $1 })
            {
                let text = String(decoding: bytes[start..<index], as: UTF8.self)
                index += closing.count
                skip(to: 0x3E)
                return text
            }
            index += 1
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }
}
