/// Checks a JSON value against a ``SchemaNode``: the contract tests use it on every result
/// the host returns, so a result that drifts from its declared type fails a test.
public enum SchemaValidator {
    /// One mismatch: where, and what was expected.
    public struct Issue: Sendable, Hashable, CustomStringConvertible {
        /// The path of the value at fault, e.g. `data.products[0].price`.
        public var path: String
        /// What was wrong.
        public var message: String

        /// `path: message`.
        public var description: String { "\(path): \(message)" }
    }

    /// Every mismatch between `value` and `node`; empty when it conforms. `path` names the root.
    ///
    /// Unknown object keys are allowed (readers are tolerant); missing required keys,
    /// wrong types and enumeration values outside the declared cases are not.
    public static func issues(_ value: JSONValue, against node: SchemaNode, path: String = "value") -> [Issue] {
        var out: [Issue] = []
        check(value, node, path, &out)
        return out
    }

    private static func check(_ value: JSONValue, _ node: SchemaNode, _ path: String, _ out: inout [Issue]) {
        func fail(_ message: String) { out.append(Issue(path: path, message: message)) }
        switch node {
        case .any:
            return
        case .string:
            if value.stringValue == nil { fail("expected a string, got \(value.typeName)") }
        case .integer:
            guard let number = value.doubleValue else { return fail("expected an integer, got \(value.typeName)") }
            if number.rounded() != number { fail("expected an integer, got \(number)") }
        case .number:
            if value.doubleValue == nil { fail("expected a number, got \(value.typeName)") }
        case .boolean:
            if value.boolValue == nil { fail("expected a boolean, got \(value.typeName)") }
        case .array(let element):
            guard let items = value.arrayValue else { return fail("expected an array, got \(value.typeName)") }
            for (index, item) in items.enumerated() { check(item, element, "\(path)[\(index)]", &out) }
        case .map(let element):
            guard let members = value.objectValue else { return fail("expected an object, got \(value.typeName)") }
            for key in members.keys.sorted() { check(members[key]!, element, "\(path).\(key)", &out) }
        case .enumeration(let name, let cases):
            guard let text = value.stringValue else { return fail("expected a \(name) string, got \(value.typeName)") }
            if !cases.contains(text) { fail("\"\(text)\" is not one of \(cases.joined(separator: ", "))") }
        case .object(let object):
            checkObject(value, object, path, &out)
        case .union(let union):
            guard let members = value.objectValue else { return fail("expected an object, got \(value.typeName)") }
            guard let tag = members[union.discriminator]?.stringValue else {
                return out.append(Issue(path: "\(path).\(union.discriminator)", message: "is required"))
            }
            guard let variant = union.variants.first(where: { $0.tag == tag }) else {
                let tags = union.variants.map(\.tag).joined(separator: ", ")
                return out.append(Issue(path: "\(path).\(union.discriminator)", message: "\"\(tag)\" is not one of \(tags)"))
            }
            checkObject(value, variant.object, path, &out)
        }
    }

    private static func checkObject(_ value: JSONValue, _ object: SchemaObject, _ path: String, _ out: inout [Issue]) {
        guard let members = value.objectValue else {
            return out.append(Issue(path: path, message: "expected an object, got \(value.typeName)"))
        }
        for field in object.fields {
            let fieldPath = "\(path).\(field.name)"
            guard let member = members[field.name] else {
                if field.required { out.append(Issue(path: fieldPath, message: "is required")) }
                continue
            }
            // NB: an optional field may be null as well as absent (`{token: null}`: "there is none").
            if member == .null, !field.required { continue }
            check(member, field.node, fieldPath, &out)
        }
    }
}
