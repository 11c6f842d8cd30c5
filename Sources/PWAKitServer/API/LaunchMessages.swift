import Foundation
import HTTPTypes

struct LaunchCodeRequest: Decodable {
    var appId: String
    var bundleHash: String
}

struct LaunchCodeResponse: Codable {
    var code: String
    var expiresAt: Date
    var launchToken: String
}

struct LaunchExchangeRequest: Decodable {
    var code: String
}

struct LaunchExchangeResponse: Codable {
    var user: LaunchUser
    var appId: String
    var bundleHash: String

    struct LaunchUser: Codable {
        var id: String
        var email: String
        var displayName: String
    }
}
