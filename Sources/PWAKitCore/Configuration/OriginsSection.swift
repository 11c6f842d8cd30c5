/// The `origins` section: origin patterns (see ``OriginPattern``) that steer navigation.
public struct OriginsSection: Codable, Sendable, Equatable {
    /// Origins that load inside the app and may reach the bridge; never empty in a valid file.
    public var allowed: [String]
    /// Origins that load inside the app for signing in, without bridge access.
    public var auth: [String]
    /// Origins that always open in the system browser; they win over `auth` and `allowed`.
    public var external: [String]
    /// Optional narrowing of bridge access: pattern → `"module"` or `"module.action"` entries.
    /// When present, an allowed origin that no key matches may call no module.
    public var grants: [String: [String]]?

    /// Creates the section.
    public init(allowed: [String], auth: [String] = [], external: [String] = [], grants: [String: [String]]? = nil) {
        self.allowed = allowed
        self.auth = auth
        self.external = external
        self.grants = grants
    }

    private enum CodingKeys: String, CodingKey {
        case allowed, auth, external, grants
    }

    /// Decodes the section; `auth` and `external` are empty when absent.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        allowed = try container.decode([String].self, forKey: .allowed)
        auth = try container.decodeIfPresent([String].self, forKey: .auth) ?? []
        external = try container.decodeIfPresent([String].self, forKey: .external) ?? []
        grants = try container.decodeIfPresent([String: [String]].self, forKey: .grants)
    }
}
