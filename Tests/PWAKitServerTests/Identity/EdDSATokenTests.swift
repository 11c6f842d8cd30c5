import Crypto
import Foundation
import JWTKit
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
            "", "...",
        ]
        for candidate in candidates {
            #expect(EdDSAToken.verifiedPayload(candidate, key: key.publicKey, as: Claims.self) == nil, "\(candidate)")
        }
    }

    @Test("base64url decoding takes unpadded text in the URL alphabet only")
    func base64URL() {
        for length in 0..<8 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 67 &+ 250) }
            #expect(Base64URL.decode(Array(Base64URL.encode(bytes).utf8)) == Data(bytes))
        }
        #expect(Base64URL.decode(Array("ab+/".utf8)) == nil)
        #expect(Base64URL.decode(Array("abcde".utf8)) == nil)
        #expect(Base64URL.decode(Array("YQ==".utf8)) == nil)
    }
}
