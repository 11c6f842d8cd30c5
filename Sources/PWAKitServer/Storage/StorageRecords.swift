import HTTPTypes
public import Foundation

/// The roles a user account can have.
public struct UserRole: RawRepresentable, Hashable, Sendable, Codable {
    /// The stable string form.
    public let rawValue: String
    /// Creates a role from its string form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// A signed-in person using the host.
    public static let user = UserRole(rawValue: "user")
    /// May manage the catalog, publisher keys, credentials and publish releases.
    public static let admin = UserRole(rawValue: "admin")
}

/// A stored user account.
public struct UserRecord: Hashable, Sendable {
    /// The user's opaque id.
    public var id: String
    /// The normalised (trimmed, lowercased) email address; unique.
    public var email: String
    /// The name shown to others.
    public var displayName: String
    /// The encoded password hash (see `PasswordHasher`).
    public var passwordHash: String
    /// What the account may do.
    public var role: UserRole
    /// When the account was created.
    public var createdAt: Date

    /// Creates a record.
    public init(id: String, email: String, displayName: String, passwordHash: String, role: UserRole, createdAt: Date) {
        self.id = id
        self.email = email
        self.displayName = displayName
        self.passwordHash = passwordHash
        self.role = role
        self.createdAt = createdAt
    }
}

/// A mini-app in the catalog.
public struct AppRecord: Hashable, Sendable, Codable {
    /// The app id (the manifest's `appId`).
    public var id: String
    /// The name shown in the launcher.
    public var name: String
    /// A short description.
    public var description: String
    /// The icon's URL or bundle path.
    public var icon: String
    /// The path the host opens first.
    public var entryPath: String
    /// The bridge modules the app asks for.
    public var permissions: [String]
    /// The release channels the app publishes on.
    public var channels: [String]
    /// When the app was added.
    public var createdAt: Date

    /// Creates a record.
    public init(id: String, name: String, description: String, icon: String, entryPath: String, permissions: [String], channels: [String], createdAt: Date) {
        self.id = id
        self.name = name
        self.description = description
        self.icon = icon
        self.entryPath = entryPath
        self.permissions = permissions
        self.channels = channels
        self.createdAt = createdAt
    }
}

/// A publisher key trusted to sign an app's releases.
public struct PublisherKeyRecord: Hashable, Sendable {
    /// The app the key signs for.
    public var appId: String
    /// The key id.
    public var keyId: String
    /// Base64 of the raw Ed25519 public key.
    public var publicKey: String
    /// When the key was added.
    public var addedAt: Date

    /// Creates a record.
    public init(appId: String, keyId: String, publicKey: String, addedAt: Date) {
        self.appId = appId
        self.keyId = keyId
        self.publicKey = publicKey
        self.addedAt = addedAt
    }
}

/// A mini-app backend's server credential (the secret is stored only as a hash).
public struct AppCredentialRecord: Hashable, Sendable {
    /// The public id of the credential.
    public var credentialId: String
    /// The app the credential belongs to.
    public var appId: String
    /// Hex SHA-256 of the secret.
    public var secretHash: String
    /// When the credential was created.
    public var createdAt: Date

    /// Creates a record.
    public init(credentialId: String, appId: String, secretHash: String, createdAt: Date) {
        self.credentialId = credentialId
        self.appId = appId
        self.secretHash = secretHash
        self.createdAt = createdAt
    }
}

/// An accepted release: the exact signed manifest bytes and where they are published.
public struct ReleaseRecord: Hashable, Sendable {
    /// The app id.
    public var appId: String
    /// The channel.
    public var channel: String
    /// The semantic version.
    public var version: String
    /// The version's ordering key (`SemanticVersion.orderingKey`).
    public var versionKey: Int64
    /// Hex SHA-256 of the manifest bytes: the bundle hash.
    public var bundleHash: String
    /// The exact manifest bytes as signed.
    public var manifest: Data
    /// The id of the key that signed.
    public var keyId: String
    /// Base64 of the signature.
    public var signature: String
    /// The share of users (0–100) who receive this release.
    public var rolloutPercent: Int
    /// When the release was accepted.
    public var createdAt: Date

    /// Creates a record.
    public init(appId: String, channel: String, version: String, versionKey: Int64, bundleHash: String, manifest: Data, keyId: String, signature: String, rolloutPercent: Int, createdAt: Date) {
        self.appId = appId
        self.channel = channel
        self.version = version
        self.versionKey = versionKey
        self.bundleHash = bundleHash
        self.manifest = manifest
        self.keyId = keyId
        self.signature = signature
        self.rolloutPercent = rolloutPercent
        self.createdAt = createdAt
    }
}

/// A single-use launch code, stored by the hash of the code.
public struct LaunchCodeRecord: Hashable, Sendable {
    /// Hex SHA-256 of the code.
    public var codeHash: String
    /// The signed-in user the code stands for.
    public var userId: String
    /// The mini-app the code is for.
    public var appId: String
    /// The bundle hash of the release being launched.
    public var bundleHash: String
    /// When the code stops being redeemable.
    public var expiresAt: Date

    /// Creates a record.
    public init(codeHash: String, userId: String, appId: String, bundleHash: String, expiresAt: Date) {
        self.codeHash = codeHash
        self.userId = userId
        self.appId = appId
        self.bundleHash = bundleHash
        self.expiresAt = expiresAt
    }
}

/// What happened when a refresh token was presented.
public enum RefreshConsumption: Hashable, Sendable {
    /// The token was valid and is now used; the caller issues the next token of the family.
    case rotated(familyId: String, userId: String)
    /// The token had been used before or its family is revoked: the family is now revoked.
    case reused(familyId: String)
    /// The token is expired.
    case expired
    /// No such token.
    case unknown
}
