import PWAKitAPI
import PWAKitCore

extension APIClientError {
    /// What a module that calls the platform server for the signed-in person answers when the call
    /// failed for want of a session (`<module>.not_signed_in`) or of the network
    /// (`<module>.offline`); nil for every other failure, which the module words itself.
    func accountBridgeError(module: String) -> BridgeError? {
        switch code {
        case .notSignedIn, .sessionExpired, .unauthorized: BridgeError(.module(module, "not_signed_in"), message)
        case .network, .timeout: BridgeError(.module(module, "offline"), message)
        default: nil
        }
    }
}
