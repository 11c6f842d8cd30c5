public import Foundation

extension PlatformServer {
    /// Verifies a request's `PWAKit-Device-Proof` as the identity routes do (form, clock skew, the
    /// enrolled device's signature over method, target and body, a nonce never used before) and
    /// returns the device's id and user; for routes of one's own that take device-signed requests.
    public func verifyDeviceProof(header: String?, method: String, target: String, body: some DataProtocol) async throws
        -> (deviceId: String, userId: String)
    {
        let device = try await mobileIdentity.proofs.verify(header: header, method: method, target: target, body: body).device
        return (device.id, device.userId)
    }
}
