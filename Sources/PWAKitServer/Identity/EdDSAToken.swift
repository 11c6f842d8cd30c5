import Crypto
import Foundation
import PWAKitEncoding

/// Verification of compact EdDSA JSON Web Tokens with one Ed25519 key, without jwt-kit's key
/// collection (an actor hop per call) on the path every authenticated request takes.
enum EdDSAToken {
    private struct Header: Decodable {
        var alg: String
    }

    /// The payload of `token` when its header names EdDSA and its signature verifies with `key`;
    /// `nil` for anything else. Claims are not checked here.
    static func verifiedPayload<Payload: Decodable>(
        _ token: String, key: Curve25519.Signing.PublicKey, as type: Payload.Type
    ) -> Payload? {
        let utf8 = Array(token.utf8)
        guard let firstDot = utf8.firstIndex(of: UInt8(ascii: ".")),
            let secondDot = utf8[(firstDot + 1)...].firstIndex(of: UInt8(ascii: ".")),
            !utf8[(secondDot + 1)...].contains(UInt8(ascii: ".")),
            let header = Base64URL.decode(utf8[..<firstDot]),
            let payload = Base64URL.decode(utf8[(firstDot + 1)..<secondDot]),
            let signature = Base64URL.decode(utf8[(secondDot + 1)...]),
            key.isValidSignature(signature, for: utf8[..<secondDot])
        else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        guard (try? decoder.decode(Header.self, from: Data(header)))?.alg == "EdDSA" else { return nil }
        return try? decoder.decode(Payload.self, from: Data(payload))
    }
}
