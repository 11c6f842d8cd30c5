import Foundation
import HummingbirdTesting
import PWAKitTesting
import Testing

/// What a JWT library on the other side reads: whole-second times, an unverified email.
@Suite("Token claims")
struct TokenClaimsTests {
    static func payload(_ token: String) throws -> [String: Any] {
        var part = String(token.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
            .replacingOccurrences(of: "_", with: "/")
        while part.count % 4 != 0 { part += "=" }
        let data = try #require(Data(base64Encoded: part))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test("iat and exp are whole seconds in access and launch tokens (the clock has fractions)")
    func wholeSeconds() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        harness.clock.advance(seconds: 0.731)
        try await harness.test(.router) { client in
            let user = try await client.register()
            let access = try Self.payload(user.access)
            for name in ["iat", "exp"] {
                let value = try #require(access[name] as? Double)
                #expect(value == value.rounded(), "\(name) = \(value)")
            }
            #expect(try #require(access["exp"] as? Double) - (try #require(access["iat"] as? Double)) == 15 * 60)
        }
    }
}
