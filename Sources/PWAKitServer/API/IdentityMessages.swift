import Foundation
import HTTPTypes

struct RegisterRequest: Decodable {
    var email: String
    var password: String
    var displayName: String?
}

/// The answer to every well-formed registration, whether or not the email already had an account.
struct RegistrationResponse: Codable, Equatable {
    var status = "accepted"
    var message = "sign in with this email address and password"
}

struct LoginRequest: Decodable {
    var email: String
    var password: String
}

struct RefreshRequest: Decodable {
    var refreshToken: String
}

struct UserResponse: Codable, Equatable {
    var id: String
    var email: String
    var displayName: String
    var role: String

    init(_ user: UserRecord) {
        id = user.id
        email = user.email
        displayName = user.displayName
        role = user.role.rawValue
    }
}

struct TokenPairResponse: Codable {
    var accessToken: String
    var refreshToken: String
    var tokenType: String
    var expiresIn: Int
    var user: UserResponse
}
