import Foundation
public import Observation
import PWAKitAPI

/// The login and registration forms: fields, what is wrong with them (per field, before anything
/// is sent), the server's answer as a sentence, and whether a request is on its way.
@MainActor
@Observable
public final class SignInModel {
    /// The email address.
    public var email = ""
    /// The password.
    public var password = ""
    /// Registration: the password again.
    public var confirmation = ""
    /// Registration: the name mini-apps show (optional).
    public var displayName = ""
    /// Per field (`email`, `password`, `confirmation`, `displayName`): what is wrong with it.
    public private(set) var fieldErrors: [String: String] = [:]
    /// What went wrong as a whole (wrong password, offline, too many attempts).
    public private(set) var error: String?
    /// Whether a request is on its way.
    public private(set) var isSubmitting = false

    private let account: AccountSession

    /// A form over `account`.
    public init(account: AccountSession) { self.account = account }

    /// Signs in; true when it succeeded (the root then routes to the launcher).
    @discardableResult
    public func signIn() async -> Bool {
        guard validate(registering: false) else { return false }
        return await submit { try await $0.signIn(email: self.trimmedEmail, password: self.password) }
    }

    /// Creates the account and signs in; true when it succeeded.
    @discardableResult
    public func register() async -> Bool {
        guard validate(registering: true) else { return false }
        let name = displayName.trimmingCharacters(in: .whitespaces)
        return await submit {
            try await $0.register(email: self.trimmedEmail, password: self.password, displayName: name.isEmpty ? nil : name)
        }
    }

    private var trimmedEmail: String { email.trimmingCharacters(in: .whitespaces) }

    private func submit(_ call: @MainActor (AccountSession) async throws -> UserResponse) async -> Bool {
        guard !isSubmitting else { return false }
        isSubmitting = true
        error = nil
        defer { isSubmitting = false }
        do {
            _ = try await call(account)
            password = ""
            confirmation = ""
            return true
        } catch let failure as APIClientError {
            if let field = failure.field, ["email", "password", "displayName"].contains(field) {
                fieldErrors[field] = failure.message
            }
            error = Self.sentence(for: failure)
            return false
        } catch {
            self.error = "Something went wrong: \(error)"
            return false
        }
    }

    private func validate(registering: Bool) -> Bool {
        var problems: [String: String] = [:]
        let email = trimmedEmail
        if email.isEmpty {
            problems["email"] = "Enter your email address."
        } else if !email.contains("@") || email.hasPrefix("@") || email.hasSuffix("@") || email.utf8.count > 254 {
            problems["email"] = "This is not an email address."
        }
        if password.isEmpty {
            problems["password"] = "Enter your password."
        } else if registering, password.utf8.count < 10 {
            problems["password"] = "Use at least 10 characters."
        } else if password.utf8.count > 1024 {
            problems["password"] = "Use at most 1024 bytes."
        }
        if registering, confirmation != password { problems["confirmation"] = "The passwords do not match." }
        if registering, displayName.utf8.count > 100 { problems["displayName"] = "Use at most 100 characters." }
        fieldErrors = problems
        error = nil
        return problems.isEmpty
    }

    /// The sentence a person sees for a server or connection error.
    static func sentence(for error: APIClientError) -> String {
        switch error.code.rawValue {
        case "invalid_credentials": "The email address or the password is wrong."
        case "too_many_attempts": "Too many attempts. Wait a few minutes and try again."
        case "network", "timeout": "The server cannot be reached. Check the connection and try again."
        default: error.message
        }
    }
}
