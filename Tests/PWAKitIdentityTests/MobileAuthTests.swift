import Crypto
import Foundation
import JWTKit
import PWAKitAPI
import PWAKitEncoding
import PWAKitIdentity
import Synchronization
import Testing

@testable import PWAKitServer

@Suite("Mobile authentication with number matching")
struct MobileAuthTests {
    @Test(
        "a backend asks, the device fetches the details, the person types the number and approves with the PIN; the requester can check the signature",
        arguments: Engine.available)
    func approve(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (client, user, _) = try await live.enrolled()
            let created = try APIClient.decode(
                CreatedTransactionResponse.self,
                from: try await live.createTransaction(email: user.email, message: "Pay 20 EUR to Ana", data: "iban=NL00").body)
            #expect((10...99).contains(created.number))
            let pending = try await client.pendingTransactions()
            #expect(pending.map(\.id) == [created.id])
            let details = try await client.transaction(id: created.id)
            #expect(details.message == "Pay 20 EUR to Ana")
            #expect(details.data == "iban=NL00")
            #expect(details.requesterAddress == "127.0.0.1")
            let status = try await client.approve(details, typedNumber: created.number, check: .pin("27491"))
            #expect(status.status == "approved")
            let seen = try await live.status(created.id)
            #expect(seen.status == "approved")
            #expect(seen.authenticator == .pin)
            // The requester gets the server's statement of the approval, checked with the server's keys;
            // never the person's own signature (a PIN key's would be an offline PIN oracle).
            let raw = try await live.api.exchange(
                "GET", "/v1/identity/transactions/\(created.id)",
                credential: .basic(id: live.credentialId, secret: LiveIdentityServer.credentialSecret))
            #expect(!String(decoding: raw.body, as: UTF8.self).contains("signature"))
            let assertion = try #require(seen.assertion)
            let keys = try await live.api.call("GET", "/v1/launch/keys", as: JWKSDocument.self)
            let x = try #require(keys.keys.first.flatMap { Base64URL.decode($0.x) })
            let serverKey = try Curve25519.Signing.PublicKey(rawRepresentation: x)
            let claims = try #require(EdDSAToken.verifiedPayload(assertion, key: serverKey, as: ApprovalClaims.self))
            #expect(claims.sub.value == user.id)
            #expect(claims.aud.value == [live.appId])
            #expect(claims.txn == created.id)
            #expect(claims.nonce == seen.nonce)
            #expect(claims.amr == ["pin"])
            #expect(claims.typ == "mobile-auth-approval")
            #expect(claims.exp.value.timeIntervalSince(claims.iat.value) == 300)
            #expect(claims.ctx == IdentityStatement.contextHash(message: "Pay 20 EUR to Ana", data: "iban=NL00"))
            // Every single-byte change of the assertion fails the check.
            let bytes = Array(assertion.utf8)
            for index in bytes.indices {
                var changed = bytes
                changed[index] ^= 0x01
                let text = String(decoding: changed, as: UTF8.self)
                #expect(EdDSAToken.verifiedPayload(text, key: serverKey, as: ApprovalClaims.self) == nil, "byte \(index)")
            }
            // Answered: no second answer, and nothing pending.
            #expect(try await client.pendingTransactions().isEmpty)
            let again = await #expect(throws: APIClientError.self) {
                try await client.approve(details, typedNumber: created.number, check: .pin("27491"))
            }
            #expect(again?.code.rawValue == "transaction_closed")
            // Another app's backend cannot read it.
            let other = try await live.api.exchange(
                "GET", "/v1/identity/transactions/\(created.id)", credential: .basic(id: "nobody", secret: "nothing-at-all-here"))
            #expect(other.status == 401)
        }
    }

    @Test("one number-match try: a wrong number rejects the transaction, and so do parallel answers with every number but one")
    func oneTry() async throws {
        try await LiveIdentityServer.run { live in
            let (client, user, _) = try await live.enrolled()
            let first = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
            let details = try await client.transaction(id: first.id)
            let wrong = first.number == 99 ? 10 : first.number + 1
            let mismatch = await #expect(throws: APIClientError.self) {
                try await client.approve(details, typedNumber: wrong, check: .pin("27491"))
            }
            #expect(mismatch?.code.rawValue == "number_mismatch")
            let closed = await #expect(throws: APIClientError.self) {
                try await client.approve(details, typedNumber: first.number, check: .pin("27491"))
            }
            #expect(closed?.code.rawValue == "transaction_closed")
            #expect(try await live.status(first.id).reason == "number_mismatch")
            // Ninety answers at once, one per number: exactly one is taken.
            let second = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
            let secondDetails = try await client.transaction(id: second.id)
            let all = await withTaskGroup(of: String.self) { group in
                for number in 10...99 {
                    group.addTask {
                        do {
                            return try await client.approve(secondDetails, typedNumber: number, check: .pin("27491")).status
                        } catch let error as APIClientError { return error.code.rawValue } catch { return "\(error)" }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(all.filter { $0 == "transaction_closed" }.count == 89, "\(all)")
            #expect(all.filter { $0 == "approved" || $0 == "number_mismatch" }.count == 1)
        }
    }

    @Test("one pending request per user, also under 20 parallel asks; the flood limit answers 429")
    func pendingAndFlood() async throws {
        try await LiveIdentityServer.run(configure: { $0.transactionLimit = 25 }) { live in
            let (client, user, _) = try await live.enrolled()
            let counted = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask { (try? await live.createTransaction(email: user.email).status) ?? 0 }
                }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(counted.filter { $0 == 201 }.count == 1, "\(counted)")
            #expect(counted.filter { $0 == 409 }.count == 19)
            let pending = try #require(try await client.pendingTransactions().first)
            _ = try await client.deny(id: pending.id)
            // 20 of the 25 were used by the burst; 5 more are allowed, each denied in turn, then 429.
            for _ in 0..<5 {
                let created = try await live.createTransaction(email: user.email)
                #expect(created.status == 201)
                let id = try APIClient.decode(CreatedTransactionResponse.self, from: created.body).id
                #expect(try await client.deny(id: id).status == "denied")
            }
            let flooded = try await live.createTransaction(email: user.email)
            #expect(flooded.status == 429)
            #expect(flooded.errorCode == "too_many_attempts")
        }
    }

    @Test("\"this wasn't me\" denies, is recorded, and mutes requests to the user until the mute ends")
    func notMe() async throws {
        try await LiveIdentityServer.run { live in
            let (client, user, _) = try await live.enrolled()
            let created = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
            let denied = try await client.deny(id: created.id, notMe: true)
            #expect(denied.status == "denied")
            #expect(denied.reason == "fraud_reported")
            let muted = try await live.createTransaction(email: user.email)
            #expect(muted.status == 429)
            #expect(muted.errorCode == "requests_muted")
            #expect(muted.header("Retry-After") == "1200")
            live.clock.advance(20 * 60 + 1)
            #expect(try await live.createTransaction(email: user.email).status == 201)
        }
    }

    @Test("nothing is accepted after expiry: the details, an answer, and the requester sees expired")
    func expiry() async throws {
        try await LiveIdentityServer.run { live in
            let (client, user, _) = try await live.enrolled()
            let created = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
            let details = try await client.transaction(id: created.id)
            live.clock.advance(60)
            let late = await #expect(throws: APIClientError.self) {
                try await client.approve(details, typedNumber: created.number, check: .pin("27491"))
            }
            #expect(late?.code.rawValue == "transaction_closed")
            await #expect(throws: APIClientError.self) { try await client.transaction(id: created.id) }
            #expect(try await client.pendingTransactions().isEmpty)
            #expect(try await live.status(created.id).status == "expired")
            // An expired request no longer blocks the next one.
            #expect(try await live.createTransaction(email: user.email).status == 201)
            #expect(try await client.device().pinAttemptsLeft == 3)
        }
    }

    @Test("an approval with a wrong PIN is rejected and counted; with a changed signature it is refused")
    func badApprovals() async throws {
        try await LiveIdentityServer.run { live in
            let (client, user, _) = try await live.enrolled()
            let created = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
            let details = try await client.transaction(id: created.id)
            let wrong = await #expect(throws: APIClientError.self) {
                try await client.approve(details, typedNumber: created.number, check: .pin("11235"))
            }
            #expect(wrong?.code.rawValue == "wrong_pin")
            #expect(try await live.status(created.id).reason == "wrong_pin")
            #expect(try await client.device().pinAttemptsLeft == 2)
            // A signature over other details (the message changed) is a wrong proof too.
            let next = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
            var forged = try await client.transaction(id: next.id)
            forged.message = "Sign in to something else"
            let refused = await #expect(throws: APIClientError.self) {
                try await client.approve(forged, typedNumber: next.number, check: .pin("27491"))
            }
            #expect(refused?.code.rawValue == "wrong_pin")
            #expect(try await live.status(next.id).status == "rejected")
        }
    }

    @Test("the push carries only the transaction id; a user with no enrolled device cannot be asked")
    func pushCarriesOnlyTheId() async throws {
        let sender = RecordingSender()
        try await LiveIdentityServer.run(configure: { $0.pushSender = sender }) { live in
            let (client, user, tokens) = try await live.enrolled()
            _ = try await live.api.call(
                "POST", "/v1/devices", body: Data(#"{"token":"00112233445566778899aabbccddeeff","platform":"local"}"#.utf8),
                credential: .bearer(tokens.accessToken), as: DeviceResponse.self)
            let created = try APIClient.decode(
                CreatedTransactionResponse.self,
                from: try await live.createTransaction(email: user.email, message: "Secret message 4242").body)
            let sent = sender.messages.withLock { $0 }
            #expect(sent.count == 1)
            #expect(sent.first?.route == "pwakit://identity/transactions/\(created.id)")
            #expect(!(sent.first.map { "\($0.title) \($0.body)" } ?? "").contains("4242"))
            _ = try await client.deny(id: created.id)
            let (stranger, _) = try await live.account()
            let none = try await live.createTransaction(email: stranger.email)
            #expect(none.status == 404)
            #expect(none.errorCode == "not_enrolled")
            let unknown = try await live.createTransaction(email: "nobody@example.com")
            #expect(unknown.status == 404)
            #expect(unknown.body == none.body, "an unknown address and one without a device answer alike")
        }
    }
}

final class RecordingSender: PushSender {
    let messages = Mutex<[PushMessage]>([])
    func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome {
        messages.withLock { $0.append(message) }
        return .delivered
    }
}
