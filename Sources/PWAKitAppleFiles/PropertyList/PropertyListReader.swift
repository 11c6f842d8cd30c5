public import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension PropertyList {
    /// The largest property list read, in bytes (1 MiB).
    public static let maximumSize = 1 << 20
    /// The deepest nesting of arrays and dictionaries read.
    static let maximumDepth = 64

    /// Reads an XML property list (the format Xcode keeps `Info.plist` and entitlements in),
    /// keeping each value's type. `file` names the file in the error.
    ///
    /// Refused with ``AppleFilesError/Code/unreadablePropertyList``: more than 1 MiB, a document
    /// type with its own declarations (entities could expand without bound), malformed XML,
    /// an element that is not a property-list type, a dictionary key without a value, nesting
    /// deeper than 64.
    public init(xml data: Data, file: String) throws(AppleFilesError) {
        func refuse(_ why: String) -> AppleFilesError {
            AppleFilesError(.unreadablePropertyList, "\(file) is not an XML property list: \(why)", field: file)
        }
        guard data.count <= Self.maximumSize else { throw refuse("it is larger than 1 MiB") }
        if data.range(of: Data("<!ENTITY".utf8)) != nil || data.range(of: Data("<!ELEMENT".utf8)) != nil {
            throw refuse("it declares entities or elements of its own")
        }
        let builder = PropertyListBuilder()
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let parsed = parser.parse()
        if let problem = builder.problem { throw refuse(problem) }
        guard parsed, let root = builder.root else {
            throw refuse(parser.parserError.map { "malformed XML (\($0.localizedDescription))" } ?? "it holds no value")
        }
        self = root
    }
}

/// Builds a ``PropertyList`` from the parser's events.
private final class PropertyListBuilder: NSObject, XMLParserDelegate {
    private enum Frame {
        case array([PropertyList])
        case dictionary([String: PropertyList], key: String?)
    }

    private(set) var root: PropertyList?
    private(set) var problem: String?
    private var stack: [Frame] = []
    private var text = ""
    private var capturing = false
    private var sawPlist = false

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        guard problem == nil else { return }
        switch name {
        case "plist":
            if sawPlist || !stack.isEmpty { fail(parser, "a nested <plist>") }
            sawPlist = true
        case "dict", "array":
            guard stack.count < PropertyList.maximumDepth else { return fail(parser, "nested deeper than 64") }
            stack.append(name == "dict" ? .dictionary([:], key: nil) : .array([]))
        case "key", "string", "integer", "real", "date", "data":
            text = ""
            capturing = true
        case "true", "false": break
        default: fail(parser, "an element <\(name.prefix(40))> that is not a property-list type")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if capturing { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        guard problem == nil else { return }
        capturing = false
        switch name {
        case "plist": break
        case "key":
            guard case .dictionary(let members, let key)? = stack.last, key == nil else {
                return fail(parser, "a <key> outside a dictionary or after another key")
            }
            stack[stack.count - 1] = .dictionary(members, key: text)
        case "string": add(.string(text), parser)
        case "integer":
            guard let number = Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                return fail(parser, "an <integer> that is not one")
            }
            add(.integer(number), parser)
        case "real": add(.real(text.trimmingCharacters(in: .whitespacesAndNewlines)), parser)
        case "date": add(.date(text.trimmingCharacters(in: .whitespacesAndNewlines)), parser)
        case "data":
            guard let bytes = Data(base64Encoded: text.filter { !$0.isWhitespace }) else {
                return fail(parser, "<data> that is not base64")
            }
            add(.data(bytes), parser)
        case "true": add(.bool(true), parser)
        case "false": add(.bool(false), parser)
        case "dict":
            guard case .dictionary(let members, let key)? = stack.popLast() else { return fail(parser, "a stray </dict>") }
            if key != nil { return fail(parser, "a dictionary key without a value") }
            add(.dictionary(members), parser)
        case "array":
            guard case .array(let elements)? = stack.popLast() else { return fail(parser, "a stray </array>") }
            add(.array(elements), parser)
        default: break
        }
    }

    // NB: libxml2 may recover from a mismatched tag and go on; any error it reports refuses the file.
    func parser(_ parser: XMLParser, parseErrorOccurred error: any Error) {
        if problem == nil { problem = "malformed XML (\(error.localizedDescription))" }
    }

    private func add(_ value: PropertyList, _ parser: XMLParser) {
        switch stack.last {
        case nil:
            guard root == nil else { return fail(parser, "more than one value at the top") }
            root = value
        case .array(var elements):
            elements.append(value)
            stack[stack.count - 1] = .array(elements)
        case .dictionary(var members, let key):
            guard let key else { return fail(parser, "a dictionary value without a <key>") }
            guard members[key] == nil else { return fail(parser, "the key \"\(key.prefix(60))\" twice in one dictionary") }
            members[key] = value
            stack[stack.count - 1] = .dictionary(members, key: nil)
        }
    }

    private func fail(_ parser: XMLParser, _ why: String) {
        if problem == nil { problem = why }
        parser.abortParsing()
    }
}
