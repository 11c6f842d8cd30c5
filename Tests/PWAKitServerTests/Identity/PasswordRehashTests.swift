import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import PWAKitServer

@Suite("password hashes are upgraded to the configured cost as their owners sign in")
struct PasswordRehashTests {
    @Test("a hash made at a lower cost is replaced at the next good login; a wrong password changes nothing")
    func upgradeOnLogin() async throws {
        let harness = try await Harness.make(engine: .sqlite) { $0.passwordHashing = ScryptParameters(n: 32, r: 8, p: 1) }
        let email = "old-\(uniqueSuffix())@example.com"
        let old = try PasswordHasher(parameters: ScryptParameters(n: 16, r: 8, p: 1)).hash(
            "old password", salt: Array(repeating: 7, count: 16))
        #expect(
            try await harness.server.storage.insertUser(
                UserRecord(
                    id: "u-\(uniqueSuffix())", email: email, displayName: "Old", passwordHash: old, role: .user, createdAt: Date()
                )))
        try await harness.test(.router) { client in
            let wrong = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "not it"])
            #expect(wrong.status == .unauthorized)
            #expect(try await harness.server.storage.user(email: email)?.passwordHash == old)
            let good = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "old password"])
            #expect(good.status == .ok)
            let upgraded = try #require(try await harness.server.storage.user(email: email)?.passwordHash)
            #expect(upgraded.hasPrefix("scrypt$32$8$1$"))
            #expect(PasswordHasher(parameters: ScryptParameters(n: 32, r: 8, p: 1)).verify("old password", encoded: upgraded))
            let again = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": "old password"])
            #expect(again.status == .ok)
            #expect(try await harness.server.storage.user(email: email)?.passwordHash == upgraded, "no second rehash")
        }
    }

    @Test("the default cost is OWASP's minimum for scrypt")
    func defaultCost() {
        #expect(ScryptParameters.standard == ScryptParameters(n: 1 << 17, r: 8, p: 1))
    }
}
