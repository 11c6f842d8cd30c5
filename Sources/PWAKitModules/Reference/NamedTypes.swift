import PWAKitCore

/// The named types (objects, enumerations, unions) that a set of schemas uses, each once,
/// in first-use order; two different types of one name are an error, not a silent merge.
struct NamedTypes {
    enum Declaration: Equatable {
        case object(SchemaObject)
        case enumeration(name: String, cases: [String])
        case union(SchemaUnion)

        var name: String {
            switch self {
            case .object(let object): object.name
            case .enumeration(let name, _): name
            case .union(let union): union.name
            }
        }
    }

    private(set) var ordered: [Declaration] = []
    private var byName: [String: Declaration] = [:]

    mutating func collect(_ node: SchemaNode) throws(SchemaError) {
        switch node {
        case .string, .integer, .number, .boolean, .any: return
        case .array(let element), .map(let element): try collect(element)
        case .object(let object):
            guard try add(.object(object)) else { return }
            for field in object.fields { try collect(field.node) }
        case .enumeration(let name, let cases):
            _ = try add(.enumeration(name: name, cases: cases))
        case .union(let union):
            guard try add(.union(union)) else { return }
            for variant in union.variants {
                for field in variant.object.fields { try collect(field.node) }
            }
        }
    }

    /// Adds `declaration`; false when it was already there.
    private mutating func add(_ declaration: Declaration) throws(SchemaError) -> Bool {
        if let existing = byName[declaration.name] {
            guard existing == declaration else {
                throw SchemaError(type: declaration.name, reason: "two different types share this name; rename one")
            }
            return false
        }
        byName[declaration.name] = declaration
        ordered.append(declaration)
        return true
    }
}
