public import Foundation

/// The body of `POST /v1/apps`.
public struct CreateAppRequest: Codable, Hashable, Sendable {
    /// The app id: lowercase letters, digits and `-`, the host of its `app://` origin.
    public var id: String
    /// The name people see.
    public var name: String
    /// A sentence about the app.
    public var description: String?
    /// An icon: an `https` URL or a `data:` URL.
    public var icon: String?
    /// The page opened first; `index.html` when absent.
    public var entryPath: String?
    /// The bridge modules (or `module.action`s) the app asks for.
    public var permissions: [String]?
    /// The release channels; `["stable"]` when absent.
    public var channels: [String]?

    /// Creates an app description.
    public init(
        id: String, name: String, description: String? = nil, icon: String? = nil, entryPath: String? = nil,
        permissions: [String]? = nil, channels: [String]? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.entryPath = entryPath
        self.permissions = permissions
        self.channels = channels
    }
}

/// One mini-app of the catalog.
public struct AppResponse: Codable, Hashable, Sendable {
    /// The app id, the host of its `app://` origin.
    public var id: String
    /// The name people see.
    public var name: String
    /// A sentence about the app.
    public var description: String
    /// An icon URL (`https:` or `data:`), or empty.
    public var icon: String
    /// The page opened first.
    public var entryPath: String
    /// The bridge modules (or `module.action`s) the app asks for.
    public var permissions: [String]
    /// The release channels, the default first.
    public var channels: [String]

    /// Creates an app entry.
    public init(
        id: String, name: String, description: String, icon: String, entryPath: String, permissions: [String],
        channels: [String]
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.entryPath = entryPath
        self.permissions = permissions
        self.channels = channels
    }
}

/// The answer to `GET /v1/apps`.
public struct AppListResponse: Codable, Hashable, Sendable {
    /// Every app of the catalog.
    public var apps: [AppResponse]

    /// Wraps a list.
    public init(apps: [AppResponse]) { self.apps = apps }
}

/// The body of `POST /v1/apps/{appId}/keys`.
public struct AddPublisherKeyRequest: Codable, Hashable, Sendable {
    /// Standard base64 of the raw 32-byte Ed25519 public key.
    public var publicKey: String

    /// Wraps a key.
    public init(publicKey: String) { self.publicKey = publicKey }
}

/// A publisher key of an app.
public struct PublisherKeyResponse: Codable, Hashable, Sendable {
    /// The app the key may sign for.
    public var appId: String
    /// The key id signatures name.
    public var keyId: String
    /// Standard base64 of the raw public key.
    public var publicKey: String
    /// When the key was added.
    public var addedAt: Date?
    /// When the key was revoked; a revoked key signs no new release.
    public var revokedAt: Date?

    /// Creates a key entry.
    public init(appId: String, keyId: String, publicKey: String, addedAt: Date? = nil, revokedAt: Date? = nil) {
        self.appId = appId
        self.keyId = keyId
        self.publicKey = publicKey
        self.addedAt = addedAt
        self.revokedAt = revokedAt
    }
}

/// The answer to `GET /v1/apps/{appId}/keys`.
public struct PublisherKeyListResponse: Codable, Hashable, Sendable {
    /// The app's keys.
    public var keys: [PublisherKeyResponse]

    /// Wraps a list.
    public init(keys: [PublisherKeyResponse]) { self.keys = keys }
}

/// The answer to `POST /v1/apps/{appId}/credentials`: a mini-app backend's credential.
public struct CredentialResponse: Codable, Hashable, Sendable {
    /// The app the credential belongs to.
    public var appId: String
    /// The credential id (the Basic user name).
    public var credentialId: String
    /// Shown once; only its hash is stored.
    public var secret: String

    /// Creates a credential answer.
    public init(appId: String, credentialId: String, secret: String) {
        self.appId = appId
        self.credentialId = credentialId
        self.secret = secret
    }
}
