import Foundation
import PWAKitAPI

extension PlatformServer {
    /// Applies a seed; returns one line per thing created, for the start-up log. A seed with problems
    /// changes nothing and throws a ``SeedError`` listing all of them.
    @discardableResult
    public func apply(_ seed: ServerSeed) async throws -> [String] {
        var problems = seed.problems()
        // NB: a publisher must name an account the seed creates or one the server has; checked
        // here, before anything is created, so a seed with problems changes nothing.
        let seeded = Set((seed.users ?? []).compactMap { try? Validation.email($0.email, field: "email") })
        for (index, app) in (seed.apps ?? []).enumerated() {
            for (publisherIndex, email) in (app.publishers ?? []).enumerated() {
                guard let normalized = try? Validation.email(email, field: "email"), !seeded.contains(normalized) else {
                    continue
                }
                if try await storage.user(email: normalized) == nil {
                    problems.append(
                        "apps[\(index)].publishers[\(publisherIndex)]: no account has the email \(normalized); list it under users"
                    )
                }
            }
        }
        guard problems.isEmpty else { throw SeedError(problems: problems) }
        var created: [String] = []
        for (index, entry) in (seed.users ?? []).enumerated() {
            let field = "users[\(index)]"
            let email = try Validation.email(entry.email, field: "\(field).email")
            try Validation.password(entry.password, field: "\(field).password")
            let role = UserRole(rawValue: entry.role ?? "user")
            guard role == .user || role == .admin else { throw APIError.invalid("\(field).role", "must be user or admin") }
            if try await storage.user(email: email) != nil { continue }
            let name =
                try entry.displayName.map { try Validation.displayName($0, field: "\(field).displayName") }
                ?? String(email.split(separator: "@")[0])
            if try await identity.createUser(email: email, password: entry.password, displayName: name, role: role) != nil {
                created.append("user \(email) (\(role.rawValue))")
            }
        }
        for (index, entry) in (seed.apps ?? []).enumerated() {
            let field = "apps[\(index)]"
            if try await storage.app(id: entry.id) == nil {
                let request = CreateAppRequest(
                    id: entry.id, name: entry.name, description: entry.description, icon: entry.icon, entryPath: entry.entryPath,
                    permissions: entry.permissions, channels: entry.channels)
                _ = try await catalog.create(request)
                created.append("app \(entry.id)")
            }
            let known = Set(try await storage.publisherKeys(appId: entry.id).map(\.publicKey))
            for (keyIndex, key) in (entry.publisherKeys ?? []).enumerated() where !known.contains(key) {
                do {
                    let record = try await catalog.addPublisherKey(appId: entry.id, AddPublisherKeyRequest(publicKey: key))
                    created.append("publisher key \(record.keyId) for \(entry.id)")
                } catch let error as APIError where error.code == .invalidRequest {
                    throw APIError.invalid("\(field).publisherKeys[\(keyIndex)]", error.message)
                }
            }
            for (credentialIndex, credential) in (entry.credentials ?? []).enumerated() {
                guard credential.secret.count >= 16 else {
                    throw APIError.invalid(
                        "\(field).credentials[\(credentialIndex)].secret", "must be at least 16 characters long")
                }
                if try await catalog.importCredential(
                    appId: entry.id, credentialId: credential.credentialId, secret: credential.secret)
                {
                    created.append("credential \(credential.credentialId) for \(entry.id)")
                }
            }
            for (publisherIndex, email) in (entry.publishers ?? []).enumerated() {
                let publisherField = "\(field).publishers[\(publisherIndex)]"
                let normalized = try Validation.email(email, field: publisherField)
                guard let user = try await storage.user(email: normalized) else {
                    throw APIError.invalid(publisherField, "no account has the email \(normalized); list it under users")
                }
                if try await storage.grantPublisher(appId: entry.id, userId: user.id, now: environment.now()) {
                    created.append("publisher \(normalized) for \(entry.id)")
                }
            }
        }
        return created
    }
}
