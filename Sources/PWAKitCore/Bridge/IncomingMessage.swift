/// A page's message after the decoding stage, before routing.
package enum IncomingMessage: Sendable {
    /// A valid message with its readable id.
    case message(BridgeMessage, bytes: Int)
    /// A message with a readable id that is invalid: it is answered with this error.
    case rejected(id: String, BridgeError, bytes: Int)
    /// A message with no readable id: it is answered with a `bridge.error` event.
    case unaddressable(BridgeError, bytes: Int)

    /// Decodes raw JSON bytes: size check, readable id, strict parse, validation.
    ///
    /// This stage is pure and runs on the caller's thread, outside the dispatcher actor.
    package static func decode(_ bytes: UnsafeBufferPointer<UInt8>, limits: BridgeLimits) -> IncomingMessage {
        let size = bytes.count
        guard size <= limits.maxMessageBytes else {
            let id = MessageIDScanner.readableID(in: bytes)
            let error = BridgeError(
                .payloadTooLarge, "message is \(size) bytes; the limit is \(limits.maxMessageBytes)",
                details: ["limit": .number(Double(limits.maxMessageBytes)), "size": .number(Double(size))])
            return id.map { .rejected(id: $0, error, bytes: size) } ?? .unaddressable(error, bytes: size)
        }
        var value: JSONValue
        do {
            value = try JSONParser(maxDepth: limits.maxDepth).parse(bytes: UnsafeRawBufferPointer(bytes))
            if case .string(let inner) = value {
                // The page posted the message as a JSON string (`postMessage(JSON.stringify(m))`).
                var inner = inner
                var nested: Result<JSONValue, JSONParseError> = .success(.null)
                inner.withUTF8 { innerBytes in
                    nested = Result { () throws(JSONParseError) -> JSONValue in
                        try JSONParser(maxDepth: limits.maxDepth).parse(bytes: UnsafeRawBufferPointer(innerBytes))
                    }
                }
                value = try nested.get()
            }
        } catch {
            // NB: only a message that does not parse needs the scanner to find its id.
            let id = MessageIDScanner.readableID(in: bytes)
            var details: [String: JSONValue] = ["offset": .number(Double(error.offset)), "reason": .string(error.code.rawValue)]
            if !error.path.isEmpty { details["path"] = .string(error.path) }
            let failure = BridgeError(.invalidMessage, "malformed JSON: \(error)", details: .object(details))
            return id.map { .rejected(id: $0, failure, bytes: size) } ?? .unaddressable(failure, bytes: size)
        }
        // NB: the parser refuses duplicate keys, so a parsed object's string `id` is exactly the
        // readable id the scanner would find (one top-level string member named `id`).
        guard case .object(let members) = value, case .string(let id)? = members["id"] else {
            return .unaddressable(Self.whyNoReadableID(value), bytes: size)
        }
        do {
            return .message(try BridgeMessage(validating: value, id: id), bytes: size)
        } catch {
            return .rejected(id: id, error, bytes: size)
        }
    }

    /// Decodes a message given as text.
    package static func decode(_ text: String, limits: BridgeLimits) -> IncomingMessage {
        var text = text
        return text.withUTF8 { decode($0, limits: limits) }
    }

    private static func whyNoReadableID(_ value: JSONValue) -> BridgeError {
        guard case .object(let members) = value else {
            return BridgeError(.invalidMessage, "a message must be a JSON object, not \(value.typeName)")
        }
        guard let id = members["id"] else {
            return .field(.invalidMessage, path: "id", "is required")
        }
        return .field(.invalidMessage, path: "id", "expected a string, got \(id.typeName)")
    }
}
