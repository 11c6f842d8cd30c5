import Foundation
import PWAKitAPI
import PWAKitBundles

extension ServerSeed {
    /// Every problem of the seed at once, each as `path: what is wrong`, before anything is created.
    /// (Whether a publisher's email names an account that is not in the seed is checked against the
    /// server's accounts by ``PlatformServer/apply(_:)``, before it creates anything either.)
    public func problems() -> [String] {
        var problems: [String] = []
        func check(_ body: () throws -> Void) {
            do { try body() } catch let error as APIError {
                problems.append("\(error.field ?? "seed"): \(error.message)")
            } catch {
                problems.append("seed: \(error)")
            }
        }
        for (index, user) in (users ?? []).enumerated() {
            let field = "users[\(index)]"
            check { _ = try Validation.email(user.email, field: "\(field).email") }
            check { try Validation.password(user.password, field: "\(field).password") }
            check {
                guard ["user", "admin"].contains(user.role ?? "user") else {
                    throw APIError.invalid("\(field).role", "must be user or admin")
                }
            }
            if let name = user.displayName { check { _ = try Validation.displayName(name, field: "\(field).displayName") } }
        }
        for (index, app) in (apps ?? []).enumerated() {
            let field = "apps[\(index)]"
            check { try Validation.appId(app.id, field: "\(field).id") }
            check { _ = try Validation.text(app.name, field: "\(field).name", maximum: 100) }
            // NB: the other fields by the rules an app is created by, one field at a time (the
            // rest left to their valid defaults), so each is reported, named under the app's path.
            let base = CreateAppRequest(id: "seed", name: "seed")
            var variants = [base, base, base, base, base]
            variants[0].description = app.description
            variants[1].icon = app.icon
            variants[2].entryPath = app.entryPath
            variants[3].permissions = app.permissions
            variants[4].channels = app.channels
            for variant in variants {
                check {
                    do { _ = try CatalogService.validatedApp(variant, createdAt: .distantPast) } catch let error as APIError {
                        throw APIError.invalid("\(field).\(error.field ?? "")", error.message)
                    }
                }
            }
            for (keyIndex, key) in (app.publisherKeys ?? []).enumerated() {
                check {
                    do { _ = try VerifyingKey(base64: key) } catch let error as BundleError {
                        throw APIError.invalid("\(field).publisherKeys[\(keyIndex)]", error.message)
                    }
                }
            }
            for (credentialIndex, credential) in (app.credentials ?? []).enumerated() {
                check {
                    guard credential.secret.count >= 16 else {
                        throw APIError.invalid(
                            "\(field).credentials[\(credentialIndex)].secret", "must be at least 16 characters long")
                    }
                }
            }
            for (publisherIndex, email) in (app.publishers ?? []).enumerated() {
                check { _ = try Validation.email(email, field: "\(field).publishers[\(publisherIndex)]") }
            }
        }
        return problems
    }
}

/// A seed that cannot be applied, with every problem found.
public struct SeedError: Error, CustomStringConvertible {
    /// Each problem as `path: what is wrong`.
    public let problems: [String]

    /// The problems, one per line.
    public var description: String {
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "the seed has \(count):\n" + problems.map { "  " + $0 }.joined(separator: "\n")
    }
}
