import Foundation
import PWAKitAPI

// NB: the wire types live in PWAKitAPI, shared with every client; here only their construction
// from the server's records.

extension UserResponse {
    init(_ user: UserRecord) {
        self.init(id: user.id, email: user.email, displayName: user.displayName, role: user.role.rawValue)
    }
}

extension AppResponse {
    init(_ app: AppRecord) {
        self.init(
            id: app.id, name: app.name, description: app.description, icon: app.icon, entryPath: app.entryPath,
            permissions: app.permissions, channels: app.channels)
    }
}

extension ReleaseResponse {
    init(_ release: ReleaseRecord) {
        self.init(
            appId: release.appId, channel: release.channel, version: release.version, bundleHash: release.bundleHash,
            rolloutPercent: release.rolloutPercent, manifest: release.manifest.base64EncodedString(), keyId: release.keyId,
            signature: release.signature, blobBaseURL: "/v1/blobs/")
    }
}
