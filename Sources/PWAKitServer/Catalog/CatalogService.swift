import Crypto
import Foundation
import HTTPTypes
import NIOCore
import PWAKitAPI
import PWAKitBundles

/// The mini-app catalog, its publisher keys and its backend credentials.
struct CatalogService: Sendable {
    let storage: any ServerStorage
    let environment: ServerEnvironment

    /// The encoded app list, re-read and re-encoded only when the catalog revision moves on.
    let listCache = CatalogListCache()

    /// The JSON body of `GET /v1/apps` at `revision` (from ``ServerStorage/catalogRevision(ifFamilyIsActive:)``) or
    /// later, with its strong entity tag (a hash of the body, so equal lists have equal tags on every replica).
    func listBody(revision: Int64) async throws -> (body: ByteBuffer, etag: String) {
        if let kept = listCache.body(revision: revision) { return kept }
        let apps = try await storage.apps()
        let body = try JSONResponse.encode(AppListResponse(apps: apps.map(AppResponse.init)))
        let etag = "\"" + SHA256.hex(of: body.readableBytesView).prefix(32) + "\""
        // NB: label it with what was read, which is at least `revision` (apps are only ever added).
        listCache.store(body, etag: etag, revision: Int64(apps.count))
        return (body, etag)
    }

    func app(_ id: String) async throws -> AppRecord {
        try Validation.appId(id, field: "appId")
        guard let app = try await storage.app(id: id) else { throw APIError.notFound("app \(id)") }
        return app
    }

    func create(_ request: CreateAppRequest) async throws -> AppRecord {
        let app = try Self.validatedApp(request, createdAt: environment.now())
        guard try await storage.insertApp(app) else {
            throw APIError(.conflict, .conflict, "app \(app.id) already exists", field: "id")
        }
        return app
    }

    /// The app `request` describes, or the first rule it breaks (the field named as in the request).
    static func validatedApp(_ request: CreateAppRequest, createdAt: Date) throws -> AppRecord {
        try Validation.appId(request.id, field: "id")
        let permissions = try (request.permissions ?? []).enumerated().map { index, value in
            try Validation.text(value, field: "permissions[\(index)]", maximum: 64)
        }
        let channels = request.channels ?? ["stable"]
        guard !channels.isEmpty, channels.count <= 16 else { throw APIError.invalid("channels", "must list 1 to 16 channels") }
        for (index, channel) in channels.enumerated() { try Validation.channel(channel, field: "channels[\(index)]") }
        guard Set(channels).count == channels.count else { throw APIError.invalid("channels", "must not repeat a channel") }
        guard permissions.count <= 64 else { throw APIError.invalid("permissions", "must list at most 64 permissions") }
        let entryPath = try Validation.text(request.entryPath ?? "index.html", field: "entryPath", maximum: 512)
        do { try ManifestRules.checkPath(entryPath, field: "entryPath") } catch let error as BundleError {
            throw APIError.invalid("entryPath", error.message)
        }
        let app = AppRecord(
            id: request.id, name: try Validation.text(request.name, field: "name", maximum: 100),
            description: try Validation.text(request.description ?? "", field: "description", maximum: 2000, allowEmpty: true),
            icon: try Validation.text(request.icon ?? "", field: "icon", maximum: 2048, allowEmpty: true),
            entryPath: entryPath, permissions: permissions, channels: channels, createdAt: createdAt
        )
        return app
    }

    func addPublisherKey(appId: String, _ request: AddPublisherKeyRequest) async throws -> PublisherKeyRecord {
        _ = try await app(appId)
        let key: VerifyingKey
        do { key = try VerifyingKey(base64: request.publicKey) } catch let error as BundleError {
            throw APIError.invalid("publicKey", error.message)
        }
        let record = PublisherKeyRecord(appId: appId, keyId: key.keyId, publicKey: key.base64, addedAt: environment.now())
        guard try await storage.insertPublisherKey(record) else {
            throw APIError(.conflict, .conflict, "key \(key.keyId) is already trusted for \(appId)", field: "publicKey")
        }
        return record
    }

    func publisherKeys(appId: String) async throws -> [PublisherKeyRecord] {
        _ = try await app(appId)
        return try await storage.publisherKeys(appId: appId)
    }

    /// Revokes a publisher key: no new release signed by it is accepted. Releases it signed stay served
    /// unless `withdrawReleases`, which withdraws them too (for a key that leaked). The key stays listed.
    func revokePublisherKey(appId: String, keyId: String, withdrawReleases: Bool) async throws
        -> (PublisherKeyRecord, withdrawn: Int)
    {
        _ = try await app(appId)
        _ = try Validation.text(keyId, field: "keyId", maximum: 64)
        guard let key = try await storage.revokePublisherKey(appId: appId, keyId: keyId, now: environment.now()) else {
            throw APIError.notFound("key \(keyId) of \(appId)")
        }
        let withdrawn =
            withdrawReleases ? try await storage.withdrawReleases(appId: appId, keyId: keyId, now: environment.now()) : 0
        return (key, withdrawn)
    }

    /// The backend credentials of an app, revoked ones included.
    func credentials(appId: String) async throws -> [AppCredentialRecord] {
        _ = try await app(appId)
        return try await storage.appCredentials(appId: appId)
    }

    /// Revokes a backend credential: it authenticates nothing from now on.
    func revokeCredential(appId: String, credentialId: String) async throws -> AppCredentialRecord {
        _ = try await app(appId)
        _ = try Validation.text(credentialId, field: "credentialId", maximum: 128)
        guard let record = try await storage.revokeAppCredential(appId: appId, credentialId: credentialId, now: environment.now())
        else {
            throw APIError.notFound("credential \(credentialId) of \(appId)")
        }
        return record
    }

    /// Lets the account with `email` publish an app; whether the right is new.
    func grantPublisher(appId: String, email: String) async throws -> (AppPublisherRecord, created: Bool) {
        _ = try await app(appId)
        let normalized = try Validation.email(email, field: "email")
        guard let user = try await storage.user(email: normalized) else {
            throw APIError(.notFound, .notFound, "no account has the email \(normalized)", field: "email")
        }
        let now = environment.now()
        let created = try await storage.grantPublisher(appId: appId, userId: user.id, now: now)
        let record =
            try await storage.publishers(appId: appId).first { $0.userId == user.id }
            ?? AppPublisherRecord(appId: appId, userId: user.id, email: user.email, grantedAt: now)
        return (record, created)
    }

    /// Who may publish an app besides administrators.
    func publishers(appId: String) async throws -> [AppPublisherRecord] {
        _ = try await app(appId)
        return try await storage.publishers(appId: appId)
    }

    /// Takes a user's right to publish an app back; 404 when they had none.
    func revokePublisher(appId: String, userId: String) async throws {
        _ = try await app(appId)
        _ = try Validation.text(userId, field: "userId", maximum: 128)
        guard try await storage.revokePublisher(appId: appId, userId: userId) else {
            throw APIError.notFound("publisher \(userId) of \(appId)")
        }
    }

    /// Creates a backend credential; the secret is returned once and stored only as a hash.
    func createCredential(appId: String) async throws -> (AppCredentialRecord, secret: String) {
        _ = try await app(appId)
        let secret = environment.token()
        let record = AppCredentialRecord(
            credentialId: "cred_" + environment.identifier(), appId: appId,
            secretHash: SHA256.hex(of: Data(secret.utf8)), createdAt: environment.now()
        )
        guard try await storage.insertAppCredential(record) else { throw StorageError(message: "credential id collision") }
        return (record, secret)
    }

    /// Stores a credential with a known secret (used when seeding).
    func importCredential(appId: String, credentialId: String, secret: String) async throws -> Bool {
        _ = try await app(appId)
        let record = AppCredentialRecord(
            credentialId: credentialId, appId: appId, secretHash: SHA256.hex(of: Data(secret.utf8)), createdAt: environment.now())
        return try await storage.insertAppCredential(record)
    }

    /// The app a `(credentialId, secret)` pair authenticates, or a 401.
    func authenticateBackend(id: String, secret: String) async throws -> AppCredentialRecord {
        let failure = APIError(
            .unauthorized, .unauthorized, "a valid app credential is required", headers: [.wwwAuthenticate: "Basic"])
        guard id.utf8.count <= 128, secret.utf8.count <= 256, let record = try await storage.appCredential(id: id),
            record.revokedAt == nil
        else {
            throw failure
        }
        let presented = Array(SHA256.hex(of: Data(secret.utf8)).utf8)
        guard PasswordHasher.constantTimeEqual(presented, Array(record.secretHash.utf8)) else { throw failure }
        return record
    }
}
