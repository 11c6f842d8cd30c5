import Foundation
import HTTPTypes

struct CreateAppRequest: Decodable {
    var id: String
    var name: String
    var description: String?
    var icon: String?
    var entryPath: String?
    var permissions: [String]?
    var channels: [String]?
}

struct AppResponse: Codable, Equatable {
    var id: String
    var name: String
    var description: String
    var icon: String
    var entryPath: String
    var permissions: [String]
    var channels: [String]

    init(_ app: AppRecord) {
        id = app.id
        name = app.name
        description = app.description
        icon = app.icon
        entryPath = app.entryPath
        permissions = app.permissions
        channels = app.channels
    }
}

struct AppListResponse: Codable {
    var apps: [AppResponse]
}

struct AddPublisherKeyRequest: Decodable {
    var publicKey: String
}

struct PublisherKeyResponse: Codable {
    var appId: String
    var keyId: String
    var publicKey: String
}

struct PublisherKeyListResponse: Codable {
    var keys: [PublisherKeyResponse]
}

struct CredentialResponse: Codable {
    var appId: String
    var credentialId: String
    /// Shown once; only its hash is stored.
    var secret: String
}
