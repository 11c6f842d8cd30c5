import Foundation
import PWAKitAPI
import PWAKitIdentity
import Synchronization
import Testing

@testable import PWAKitServer

@Suite("Device proofs: replays, changed bytes, skew, hostile headers")
struct ProofTests {
    static let target = SignedRequest.target
    static let body = SignedRequest.body

    @Test("0 of 10,000 replays of a signed request are accepted (2,000 on PostgreSQL)", arguments: Engine.available)
    func replays(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (client, _, _) = try await live.enrolled()
            let identity = try #require(try await client.identity())
            let verifier = live.server.mobileIdentity.proofs
            let headers = try await client.proofHeaders(
                method: "POST", target: Self.target, body: Self.body, identity: identity, person: nil)
            let header = headers[DeviceProof.headerName]
            _ = try await verifier.verify(header: header, method: "POST", target: Self.target, body: Self.body)
            // NB: 10,000 on SQLite; 2,000 on the PostgreSQL that CI shares with every other suite.
            let perLane = engine == .sqlite ? 1_250 : 250
            let accepted = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var accepted = 0
                        for _ in 0..<perLane {
                            let verified = try? await verifier.verify(
                                header: header, method: "POST", target: Self.target, body: Self.body)
                            if verified != nil { accepted += 1 }
                        }
                        return accepted
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(accepted == 0)
            // And over HTTP: the captured request, sent again, is refused as a replay.
            let fresh = try await client.proofHeaders(
                method: "GET", target: "/v1/identity/device", body: Data(), identity: identity, person: nil)
            #expect(try await live.api.exchange("GET", "/v1/identity/device", headers: fresh, idempotent: false).status == 200)
            for _ in 0..<100 {
                let again = try await live.api.exchange("GET", "/v1/identity/device", headers: fresh, idempotent: false)
                #expect(again.status == 401)
                #expect(again.errorCode == "proof_replayed")
            }
        }
    }

    @Test("every single-byte change to the method, target, body or proof header is refused; the unchanged request then passes")
    func singleByteChanges() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled()
            let identity = try #require(try await client.identity())
            let verifier = live.server.mobileIdentity.proofs
            let headers = try await client.proofHeaders(
                method: "POST", target: Self.target, body: Self.body, identity: identity, person: nil)
            let header = try #require(headers[DeviceProof.headerName])
            let changes = SignedRequest(header: header).changes
            for change in changes {
                #expect(await change.isRefused(by: verifier), "\(change.label)")
            }
            #expect(changes.contains { $0.method == "PUT" })
            #expect(changes.count > 300)
            let device = try await verifier.verify(header: header, method: "POST", target: Self.target, body: Self.body).device
            #expect(device.id == identity.deviceId)
        }
    }

    @Test("a proof further than five minutes from the server's clock is refused as clock skew; within, it passes")
    func skew() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled()
            let identity = try #require(try await client.identity())
            let verifier = live.server.mobileIdentity.proofs
            for (offset, passes) in [(-301.0, false), (301, false), (-299, true), (299, true)] {
                var shifted = client
                let clock = live.clock
                shifted.now = { clock.now.addingTimeInterval(offset) }
                let headers = try await shifted.proofHeaders(
                    method: "GET", target: "/v1/identity/device", body: Data(), identity: identity, person: nil)
                do {
                    _ = try await verifier.verify(
                        header: headers[DeviceProof.headerName], method: "GET", target: "/v1/identity/device", body: Data())
                    #expect(passes, "offset \(offset)")
                } catch let error as APIError {
                    #expect(!passes, "offset \(offset)")
                    #expect(error.code == .clockSkew)
                }
            }
        }
    }

    @Test("malformed, hostile and oversized proof headers get 401 invalid_proof naming the part, never a server error")
    func hostileHeaders() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled()
            let identity = try #require(try await client.identity())
            let goodHeaders = try await client.proofHeaders(
                method: "GET", target: "/v1/identity/device", body: Data(), identity: identity, person: nil)
            let good = try #require(goodHeaders[DeviceProof.headerName])
            let sig = String(good.split(separator: " ").last!)
            let nonce = "AAAAAAAAAAAAAAAAAAAAAA"
            let hostile = [
                "", "v1", "v2 device=a time=1 nonce=\(nonce) \(sig)", "v1 device=a", "v1 device=a time=1 nonce=\(nonce)",
                "v1 device=\(identity.deviceId) device=\(identity.deviceId) time=1 nonce=\(nonce) \(sig)",
                "v1 device=../../etc time=1 nonce=\(nonce) \(sig)", "v1 device=' OR 1=1 -- time=1 nonce=\(nonce) \(sig)",
                "v1 device=\(identity.deviceId) time=-5 nonce=\(nonce) \(sig)",
                "v1 device=\(identity.deviceId) time=99999999999999999999 nonce=\(nonce) \(sig)",
                "v1 device=\(identity.deviceId) time=1 nonce=AAAA \(sig)",
                "v1 device=\(identity.deviceId) time=1 nonce=\(nonce) sig=AAAA",
                "v1 device=\(identity.deviceId) time=1 nonce=\(nonce) \(sig) extra=1", "v1 device==== time== nonce== sig==",
                "v1 " + String(repeating: "a", count: 600), String(repeating: "v1 ", count: 200),
                "v1 device=\(identity.deviceId) time=1 nonce=\(nonce) \(sig)",
            ]
            for header in hostile {
                let response = try await live.api.exchange(
                    "GET", "/v1/identity/device", headers: [DeviceProof.headerName: header], idempotent: false)
                #expect([401].contains(response.status), "\(header.prefix(60)): \(response.status)")
                #expect(["invalid_proof", "clock_skew"].contains(response.errorCode ?? ""), "\(header.prefix(60))")
            }
            // Bytes no HTTP client sends are refused by the parser itself.
            for header in ["v1 device=\u{0000} time=1 nonce=\(nonce) \(sig)", "v1 device=\u{1F600} time=1 nonce=\(nonce) \(sig)"]
            {
                #expect(throws: ProofFormatError.self) { try DeviceProof(header: header) }
            }
            let missing = try await live.api.exchange("GET", "/v1/identity/device", idempotent: false)
            #expect(missing.status == 401)
            #expect(missing.errorCode == "invalid_proof")
            // A user proof that is malformed or from the wrong authenticator is refused before any PIN is counted.
            for user in ["", "v1 authenticator=face sig=\(sig)", "v1 authenticator=pin", "v1 authenticator=biometric \(sig)"] {
                var headers = try await client.proofHeaders(
                    method: "POST", target: "/v1/identity/device/session", body: Data(), identity: identity, person: nil)
                headers[DeviceProof.userHeaderName] = user
                let response = try await live.api.exchange(
                    "POST", "/v1/identity/device/session", headers: headers, idempotent: false)
                #expect(response.status == 401, "\(user)")
            }
            #expect(try await client.device().pinAttemptsLeft == 3)
            // Oversized and malformed bodies on signed routes: 413 and 400 naming the field.
            let big = Data(repeating: UInt8(ascii: "a"), count: 70_000)
            let oversized = try await live.api.exchange(
                "POST", "/v1/identity/device/transactions/x/answer", body: big,
                headers: try await client.proofHeaders(
                    method: "POST", target: "/v1/identity/device/transactions/x/answer", body: big, identity: identity,
                    person: nil), idempotent: false)
            #expect(oversized.status == 413)
            let created = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: identity.email).body)
            let path = "/v1/identity/device/transactions/\(created.id)/answer"
            for (text, field) in [
                (#"{"decision":"maybe"}"#, "decision"), (#"{"decision":"approve"}"#, "number"),
                (#"{"decision":"approve","number":42}"#, "authenticator"),
                (#"{"decision":"approve","number":42,"authenticator":"pin","signature":"AAAA"}"#, "signature"),
                ("[]", "body"), ("{", "body"),
            ] {
                let body = Data(text.utf8)
                let response = try await live.api.exchange(
                    "POST", path, body: body,
                    headers: try await client.proofHeaders(
                        method: "POST", target: path, body: body, identity: identity, person: nil),
                    idempotent: false)
                #expect(response.status == 400, "\(text)")
                #expect(APIClient.error(from: response).field == field, "\(text)")
            }
            // None of those took the one answer.
            #expect(try await client.pendingTransactions().map(\.id) == [created.id])
        }
    }
}
