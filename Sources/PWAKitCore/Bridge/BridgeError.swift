/// An error that crosses the bridge: a stable code, a human message and optional details.
///
/// Modules throw it for failures a page should be able to tell apart. Module-specific codes
/// are namespaced `<module>.<reason>` (``Code/module(_:_:)``).
public struct BridgeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable error code. Codes are only ever added, never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
        /// The wire form, e.g. `invalid_payload` or `biometrics.lockout`.
        public let rawValue: String

        /// Creates a code from its wire form.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// Creates a code from a literal wire form.
        public init(stringLiteral value: String) { self.rawValue = value }

        /// A module-specific code, `<module>.<reason>`.
        public static func module(_ module: String, _ reason: String) -> Code {
            Code("\(module).\(reason)")
        }

        /// The message is not a valid bridge message.
        public static let invalidMessage: Code = "invalid_message"
        /// No module of that name exists.
        public static let unknownModule: Code = "unknown_module"
        /// The module exists but the configuration disables it.
        public static let unavailable: Code = "unavailable"
        /// The module has no such action.
        public static let unknownAction: Code = "unknown_action"
        /// The payload does not match what the action expects.
        public static let invalidPayload: Code = "invalid_payload"
        /// The calling origin is not granted this module or action.
        public static let permissionDenied: Code = "permission_denied"
        /// The calling origin may not use the bridge at all.
        public static let originNotAllowed: Code = "origin_not_allowed"
        /// The message is larger than the bridge accepts.
        public static let payloadTooLarge: Code = "payload_too_large"
        /// The call did not finish before its deadline.
        public static let timeout: Code = "timeout"
        /// The call was cancelled by the page, or its page went away.
        public static let cancelled: Code = "cancelled"
        /// The module failed in a way it did not classify.
        public static let moduleError: Code = "module_error"
        /// The page has as many calls in flight as the dispatcher allows.
        public static let tooManyCalls: Code = "too_many_calls"

        /// The wire form.
        public var description: String { rawValue }
    }

    /// What went wrong, as a stable code.
    public var code: Code
    /// A human explanation, safe to show a developer.
    public var message: String
    /// Extra facts, e.g. `{"path": "payload.trigger.seconds"}` for the field at fault.
    public var details: JSONValue?

    /// Creates an error.
    public init(_ code: Code, _ message: String, details: JSONValue? = nil) {
        self.code = code
        self.message = message
        self.details = details
    }

    /// An error naming the field at fault in `details.path`.
    public static func field(_ code: Code, path: String, _ message: String) -> BridgeError {
        BridgeError(code, "\(path): \(message)", details: ["path": .string(path)])
    }

    /// `code: message`.
    public var description: String { "\(code): \(message)" }
}
