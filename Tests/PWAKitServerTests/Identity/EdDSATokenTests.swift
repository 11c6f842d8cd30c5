import Crypto
import Foundation
import JWTKit
import PWAKitEncoding
import Testing

@testable import PWAKitServer

@Suite("EdDSA token verification")
struct EdDSATokenTests {
    struct Claims: JWTPayload, Equatable {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    let key = Curve25519.Signing.PrivateKey()
    let claims = Claims(sub: .init(value: "user-1"), exp: .init(value: Date(timeIntervalSince1970: 1_900_000_000)))

    func signed(with key: Curve25519.Signing.PrivateKey) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(eddsa: EdDSA.PrivateKey(backing: key), kid: "k")
        return try await keys.sign(claims, kid: "k")
    }

    @Test("accepts what jwt-kit signs with the key, with its claims")
    func accepts() async throws {
        let token = try await signed(with: key)
        #expect(EdDSAToken.verifiedPayload(token, key: key.publicKey, as: Claims.self) == claims)
    }

    @Test("refuses another key, a changed signature or payload, another algorithm and malformed tokens")
    func refuses() async throws {
        let token = try await signed(with: key)
        let parts = token.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let otherPayload = Base64URL.encode(Data(#"{"sub":"admin","exp":1900000000}"#.utf8))
        let noneHeader = Base64URL.encode(Data(#"{"alg":"none"}"#.utf8))
        let forgedHeader = Base64URL.encode(Data(#"{"alg":"HS256"}"#.utf8))
        let forgedSignature = try key.signature(for: Data("\(forgedHeader).\(parts[1])".utf8))
        let candidates = [
            try await signed(with: Curve25519.Signing.PrivateKey()),
            flipSignatureCharacter(token),
            "\(parts[0]).\(otherPayload).\(parts[2])",
            "\(noneHeader).\(parts[1]).",
            "\(forgedHeader).\(parts[1]).\(Base64URL.encode(forgedSignature))",
            "\(parts[0]).\(parts[1])",
            "\(token).\(parts[2])",
            "\(parts[0]).\(parts[1]).\(parts[2])=",
            "\(parts[0]).\(parts[1]).\(respelled(parts[2]))",
            "", "...",
        ]
        for candidate in candidates {
            #expect(EdDSAToken.verifiedPayload(candidate, key: key.publicKey, as: Claims.self) == nil, "\(candidate)")
        }
    }

    /// The signature text with its last character's unused low bits set: the same bytes to a
    /// lenient decoder, so a token could be re-spelled without changing its signature.
    func respelled(_ signature: String) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
        var characters = Array(signature)
        let value = alphabet.firstIndex(of: characters[characters.count - 1])!
        characters[characters.count - 1] = alphabet[value | 0x0F]
        return String(characters)
    }
}
