public import Foundation
import PWAKitBundles
import PWAKitErrors

/// Accounts and apps to create at start, read from a small JSON file (`pwakit server --seed`).
/// Seeding is idempotent: existing users, apps, keys and credentials are left as they are.
public struct ServerSeed: Codable, Sendable {
    /// An account to create.
    public struct User: Codable, Sendable {
        /// Email address.
        public var email: String
        /// Password (at least 8 characters).
        public var password: String
        /// Display name; defaults to the email's local part.
        public var displayName: String?
        /// `user` (default) or `admin`.
        public var role: String?

        /// Creates a user entry.
        public init(email: String, password: String, displayName: String? = nil, role: String? = nil) {
            self.email = email
            self.password = password
            self.displayName = displayName
            self.role = role
        }
    }

    /// A backend credential with a known secret.
    public struct Credential: Codable, Sendable {
        /// The credential's id.
        public var credentialId: String
        /// The secret (at least 16 characters).
        public var secret: String

        /// Creates a credential entry.
        public init(credentialId: String, secret: String) {
            self.credentialId = credentialId
            self.secret = secret
        }
    }

    /// An app to add to the catalog.
    public struct App: Codable, Sendable {
        /// App id.
        public var id: String
        /// Display name.
        public var name: String
        /// Description.
        public var description: String?
        /// Icon URL or bundle path.
        public var icon: String?
        /// Entry path.
        public var entryPath: String?
        /// Requested bridge modules.
        public var permissions: [String]?
        /// Channels (default `["stable"]`).
        public var channels: [String]?
        /// Base64 raw Ed25519 public keys trusted to sign releases.
        public var publisherKeys: [String]?
        /// Backend credentials.
        public var credentials: [Credential]?
        /// Emails of accounts (seeded above or existing) that may publish this app without being administrators.
        public var publishers: [String]?

        /// Creates an app entry.
        public init(
            id: String, name: String, description: String? = nil, channels: [String]? = nil, publisherKeys: [String]? = nil,
            credentials: [Credential]? = nil, publishers: [String]? = nil
        ) {
            self.id = id
            self.name = name
            self.description = description
            self.channels = channels
            self.publisherKeys = publisherKeys
            self.credentials = credentials
            self.publishers = publishers
        }
    }

    /// Accounts.
    public var users: [User]?
    /// Apps.
    public var apps: [App]?

    /// Creates a seed.
    public init(users: [User]? = nil, apps: [App]? = nil) {
        self.users = users
        self.apps = apps
    }

    /// Reads a seed file, naming the field at fault when it is malformed.
    public static func load(contentsOf url: URL) throws -> ServerSeed {
        let data = try Data(contentsOf: url)
        do {
            return try JSONDecoder().decode(ServerSeed.self, from: data)
        } catch let error as DecodingError {
            throw SeedError(problems: ["\(error.fieldPath.isEmpty ? "seed" : error.fieldPath): \(error.fieldProblem)"])
        }
    }
}
