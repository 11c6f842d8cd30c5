import Foundation
import HTTPTypes
import PWAKitBundles

/// Field rules for request bodies; every failure names its field.
enum Validation {
    static let maximumPasswordBytes = 1024

    static func normalizedEmail(_ value: String) -> String {
        value.trimmingCharacters(in: .whitespaces).lowercased()
    }

    static func email(_ value: String, field: String) throws -> String {
        let email = normalizedEmail(value)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count >= 3, email.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F })
        else {
            throw APIError.invalid(field, "must be an email address like name@example.com")
        }
        return email
    }

    static func password(_ value: String, field: String) throws {
        guard value.count >= 8 else { throw APIError.invalid(field, "must be at least 8 characters long") }
        guard value.utf8.count <= maximumPasswordBytes else {
            throw APIError.invalid(field, "must be at most \(maximumPasswordBytes) bytes long")
        }
    }

    static func displayName(_ value: String, field: String) throws -> String {
        try text(value, field: field, maximum: 100)
    }

    /// Trimmed text of 1…`maximum` characters with no control characters.
    static func text(_ value: String, field: String, maximum: Int, allowEmpty: Bool = false) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard allowEmpty || !trimmed.isEmpty else { throw APIError.invalid(field, "must not be empty") }
        guard trimmed.count <= maximum else { throw APIError.invalid(field, "must be at most \(maximum) characters long") }
        guard !trimmed.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw APIError.invalid(field, "must not contain control characters")
        }
        return trimmed
    }

    static func appId(_ value: String, field: String) throws {
        do { try ManifestRules.checkAppId(value, field: field) } catch let error as BundleError {
            throw APIError.invalid(field, error.message)
        }
    }

    static func channel(_ value: String, field: String) throws {
        do { try ManifestRules.checkChannel(value, field: field) } catch let error as BundleError {
            throw APIError.invalid(field, error.message)
        }
    }

    static func sha256(_ value: String, field: String) throws {
        guard ManifestRules.isSHA256Hex(value) else { throw APIError.invalid(field, "must be 64 lowercase hexadecimal digits") }
    }
}
