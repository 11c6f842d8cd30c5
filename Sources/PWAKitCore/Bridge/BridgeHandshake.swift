/// The protocol handshake a host exposes as `window.pwakit.protocol` before page scripts run.
///
/// Every host builds it from the same registry through this type, so pages see the same
/// object everywhere.
public struct BridgeHandshake: Sendable, Hashable {
    /// The bridge protocol version this build speaks.
    public static let protocolVersion = 1

    /// What this build supports beyond the seed protocol.
    public static let capabilities = [
        "cancel", "timeoutMs", "errorCodes", "errorDetails", "events", "bridgeErrorEvent", "ready", "textMessages",
    ]

    /// The protocol version.
    public var version: Int
    /// The capabilities.
    public var capabilities: [String]
    /// A hash of the module schema (names, actions, enabled state), 16 hex digits.
    public var schemaHash: String

    /// The handshake for the modules in `registry`.
    public init(registry: ModuleRegistry) {
        self.version = Self.protocolVersion
        self.capabilities = Self.capabilities
        var canonical = ""
        for module in registry.descriptors {
            canonical += "\(module.name)\(module.enabled ? "+" : "-"):\(module.actions.sorted().joined(separator: ","));"
        }
        self.schemaHash = Self.fnv1a64Hex(canonical)
    }

    /// The handshake as a JSON value.
    public var json: JSONValue {
        [
            "version": .number(Double(version)),
            "capabilities": .array(capabilities.map { .string($0) }),
            "schemaHash": .string(schemaHash),
        ]
    }

    /// A script that installs the handshake as a frozen `window.pwakit.protocol`, keeping
    /// anything else already on `window.pwakit`.
    public var javaScript: String {
        let object = JSONSerializer.serialize(json)
        return "(function(){var p=window.pwakit=window.pwakit||{};"
            + "if(!p.protocol){Object.defineProperty(p,'protocol',{value:Object.freeze(\(object)),enumerable:true});}})();"
    }

    // NB: a stable, dependency-free identifier of the schema, not a security measure.
    static func fnv1a64Hex(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
