extension DecodingError {
    /// The JSON path of the value at fault, written as `files[2].sha256`; empty for the document itself.
    ///
    /// The one renderer of decoding paths: the bridge (``fieldPath(under:)`` with `payload`), release
    /// manifests, key files, the API client and WatchLink's wire codec all name fields this way.
    public var fieldPath: String {
        Self.render(codingKeys)
    }

    /// The path under `root`: `payload.trigger.seconds`, `payload[0]`, or `root` itself for the document.
    public func fieldPath(under root: String) -> String {
        let path = fieldPath
        if path.isEmpty { return root }
        return path.hasPrefix("[") ? root + path : root + "." + path
    }

    /// The keys from the document to the value at fault (the missing key included).
    public var codingKeys: [any CodingKey] {
        switch self {
        case .keyNotFound(let key, let context): context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            context.codingPath
        @unknown default: []
        }
    }

    /// A short human explanation of what went wrong at ``fieldPath``.
    public var fieldProblem: String {
        switch self {
        case .keyNotFound: return "is required"
        case .typeMismatch(let type, _): return "must be of type \(Self.jsonTypeName(type))"
        case .valueNotFound(let type, _): return "must be a non-null \(Self.jsonTypeName(type))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "is not valid JSON" : "has an invalid value"
        @unknown default: return "is invalid"
        }
    }

    private static func jsonTypeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "string"
        case is Int.Type, is Int64.Type: "integer"
        case is Double.Type: "number"
        case is Bool.Type: "boolean"
        default: String(describing: type).hasPrefix("Array") ? "array" : "object"
        }
    }

    private static func render(_ path: [any CodingKey]) -> String {
        var result = ""
        for key in path {
            if let index = key.intValue {
                result += "[\(index)]"
            } else {
                result += result.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return result
    }
}
