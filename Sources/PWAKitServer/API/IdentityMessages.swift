import Foundation
import HTTPTypes

struct RegisterRequest: Decodable {
    var email: String
    var password: String
    var displayName: String?
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
