import Crypto
import Foundation
import PWAKitAPI
import PWAKitEncoding
import PWAKitIdentity
import Testing

@testable import PWAKitServer

@Suite("QR sign-in")
struct QRSignInTests {
    @Test(
        "the page's code, scanned and approved with the PIN, signs in only the page that holds the key, once",
        arguments: Engine.available)
    func signIn(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (client, user, _) = try await live.enrolled()
            let page = LiveIdentityServer.Page()
            let session = try await live.qrSession(for: page)
            #expect(session.svg.hasPrefix("<svg"))
            // Nothing to redeem before the person answers.
            #expect(try await live.redeem(session, by: page).status == 202)
            let scanned = try await client.scan(session.payload)
            #expect(scanned.context.origin == live.baseURL.absoluteString)
            #expect(scanned.context.requesterAddress == "127.0.0.1")
            // Another page that copied the code cannot redeem it, before or after approval.
            let thief = LiveIdentityServer.Page()
            let stolen = try await live.api.exchange(
                "POST", "/v1/identity/qr/sessions/\(session.id)/redeem", body: try thief.redeemBody(session), idempotent: false)
            #expect(stolen.status == 401)
            #expect(try await client.approve(scanned, check: .pin("27491")).status == "approved")
            let again = try await live.api.exchange(
                "POST", "/v1/identity/qr/sessions/\(session.id)/redeem", body: try thief.redeemBody(session), idempotent: false)
            #expect(again.status == 401)
            // Twenty parallel redemptions by the page: one gets the tokens.
            let statuses = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<20 { group.addTask { (try? await live.redeem(session, by: page).status) ?? 0 } }
                return await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 1, "\(statuses)")
            #expect(statuses.filter { $0 == 409 }.count == 19)
            // The code is used: scanning it again finds nothing to answer.
            await #expect(throws: APIClientError.self) { try await client.scan(session.payload) }
            _ = user
        }
    }

    @Test("the redeemed session is the person's; 10,000 replays of the redemption are refused")
    func replays() async throws {
        try await LiveIdentityServer.run { live in
            let (client, user, _) = try await live.enrolled()
            let page = LiveIdentityServer.Page()
            let session = try await live.qrSession(for: page)
            _ = try await client.approve(try await client.scan(session.payload), check: .pin("27491"))
            let redeemed = try await live.redeem(session, by: page)
            #expect(redeemed.status == 200)
            let tokens = try APIClient.decode(TokenPairResponse.self, from: redeemed.body)
            #expect(tokens.user.id == user.id)
            #expect(try await live.api.me(accessToken: tokens.accessToken).id == user.id)
            let request = try APIClient.decode(RedeemQRRequest.self, from: try page.redeemBody(session))
            let service = live.server.qrSignIn
            let accepted = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var accepted = 0
                        for _ in 0..<1_250 {
                            if case .tokens = try? await service.redeem(request, id: session.id, wait: 0) { accepted += 1 }
                        }
                        return accepted
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(accepted == 0)
        }
    }

    @Test("a denied code tells the page; an expired one is closed everywhere; a code changed in transit is refused")
    func deniedExpiredChanged() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled()
            let page = LiveIdentityServer.Page()
            let denied = try await live.qrSession(for: page)
            #expect(try await client.deny(try await client.scan(denied.payload)).status == "denied")
            let refused = try await live.redeem(denied, by: page)
            #expect(refused.status == 403)
            #expect(refused.errorCode == "sign_in_denied")

            let changed = try await live.qrSession(for: page)
            var payload = try QRSignInPayload(text: changed.payload)
            payload.keyHash = LiveIdentityServer.Page().keyHash
            let scanned = try await client.scan(payload.text)
            let mismatch = await #expect(throws: APIClientError.self) { try await client.approve(scanned, check: .pin("27491")) }
            #expect(mismatch?.field == "keyHash")
            var otherOrigin = try QRSignInPayload(text: changed.payload)
            otherOrigin.origin = "https://evil.example"
            let origin = await #expect(throws: IdentityError.self) { try await client.scan(otherOrigin.text) }
            #expect(origin?.code == .invalidCode)
            #expect(origin?.field == "code.origin")
            let good = "origin=https://id.example.com&session=a&key=\(payload.keyHash)&nonce=\(payload.nonce)"
            let longName = String(repeating: "z", count: 100)
            for (text, field) in [
                ("", "code"), ("https://example.com", "code"), ("pwakit://identity/qr?v=2", "code.v"),
                (String(repeating: "x", count: 600), "code"),
                (
                    "pwakit://identity/qr?v=1&origin=javascript:alert(1)&session=a&key=\(payload.keyHash)&nonce=\(payload.nonce)",
                    "code.origin"
                ),
                ("pwakit://identity/qr?v=1&\(good)&nonce=\(payload.nonce)", "code.nonce"),
                ("pwakit://identity/qr?v=1&origin=https://id.example.com&session=a&key=short&nonce=\(payload.nonce)", "code.key"),
                // NB: a repeated name of the scanned text's own is not echoed as a field.
                ("pwakit://identity/qr?v=1&\(good)&\(longName)=1&\(longName)=2", "code"),
            ] {
                let error = await #expect(throws: IdentityError.self) { try await client.scan(text) }
                #expect(error?.code == .invalidCode, "\(text.prefix(40))")
                #expect(error?.field == field, "\(text.prefix(60)): \(error?.message ?? "")")
                #expect(error?.message.contains("longer than") == (text.utf8.count > 512), "\(error?.message ?? "")")
                #expect(error?.message.contains("zzz") == false, "the scanned text's own names are not shown")
            }

            let expiring = try await live.qrSession(for: page)
            let scannedBeforeExpiry = try await client.scan(expiring.payload)
            live.clock.advance(60)
            let late = await #expect(throws: APIClientError.self) {
                try await client.approve(scannedBeforeExpiry, check: .pin("27491"))
            }
            #expect(late?.code.rawValue == "transaction_closed")
            #expect(try await live.redeem(expiring, by: page).status == 409)
            // No PIN attempt was spent on any of it.
            #expect(try await client.device().pinAttemptsLeft == 3)
        }
    }

    @Test(
        "hostile sign-in code requests: bad key hashes, keys and signatures name their field; the page is served with a strict policy"
    )
    func hostile() async throws {
        try await LiveIdentityServer.run(configure: { $0.qrCodeLimit = 5 }) { live in
            for body in [
                #"{"keyHash":"short"}"#, #"{"keyHash":42}"#, "{}", "[", #"{"keyHash":"\#(String(repeating: "A", count: 44))"}"#,
            ] {
                let response = try await live.api.exchange(
                    "POST", "/v1/identity/qr/sessions", body: Data(body.utf8), idempotent: false)
                #expect(response.status == 400, "\(body)")
            }
            let page = LiveIdentityServer.Page()
            let session = try await live.qrSession(for: page)
            for (body, field) in [
                (#"{"publicKey":"AAAA","signature":"AAAA"}"#, "publicKey"),
                (#"{"publicKey":"\#(page.publicKey)","signature":"AAAA"}"#, "signature"),
            ] {
                let response = try await live.api.exchange(
                    "POST", "/v1/identity/qr/sessions/\(session.id)/redeem", body: Data(body.utf8), idempotent: false)
                #expect(response.status == 400)
                #expect(APIClient.error(from: response).field == field)
            }
            let badWait = try await live.api.exchange(
                "POST", "/v1/identity/qr/sessions/\(session.id)/redeem?wait=999", body: try page.redeemBody(session),
                idempotent: false)
            #expect(APIClient.error(from: badWait).field == "wait")
            // The code limit per address answers 429.
            var statuses: [Int] = []
            for _ in 0..<5 {
                statuses.append(
                    try await live.api.exchange(
                        "POST", "/v1/identity/qr/sessions",
                        body: try APIClient.encode(CreateQRSessionRequest(keyHash: page.keyHash)), idempotent: false
                    ).status)
            }
            #expect(statuses.last == 429)
            let html = try await live.api.exchange("GET", "/v1/identity/qr")
            #expect(html.status == 200)
            #expect(html.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
            #expect(String(decoding: html.body, as: UTF8.self).contains("/v1/identity/qr/page.js"))
        }
    }

    @Test("with a public URL, codes name it and a page of another origin cannot ask for one")
    func publicOrigin() async throws {
        try await LiveIdentityServer.run(configure: { $0.publicOrigin = "https://id.example.com" }) { live in
            let (client, _, _) = try await live.enrolled()
            let page = LiveIdentityServer.Page()
            let session = try await live.qrSession(for: page)
            #expect(try QRSignInPayload(text: session.payload).origin == "https://id.example.com")
            #expect(try await client.scan(session.payload).context.origin == "https://id.example.com")
            let foreign = try await live.api.exchange(
                "POST", "/v1/identity/qr/sessions", body: try APIClient.encode(CreateQRSessionRequest(keyHash: page.keyHash)),
                headers: ["Origin": "https://evil.example"], idempotent: false)
            #expect(foreign.status == 403)
            #expect(APIClient.error(from: foreign).field == "Origin")
        }
        // Without one, an Origin that is not a plain origin is refused (never a server error).
        try await LiveIdentityServer.run { live in
            let page = LiveIdentityServer.Page()
            for origin in [
                "null", "https://a.example/path", "javascript:alert(1)", "https://" + String(repeating: "a", count: 300),
            ] {
                let response = try await live.api.exchange(
                    "POST", "/v1/identity/qr/sessions",
                    body: try APIClient.encode(CreateQRSessionRequest(keyHash: page.keyHash)), headers: ["Origin": origin],
                    idempotent: false)
                #expect(response.status == 400, "\(origin.prefix(40))")
            }
        }
    }

    @Test(
        "a code approved by a device that is revoked before the page redeems gives no session; a redeemed one ends with the device"
    )
    func revokedApprover() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, tokens) = try await live.enrolled()
            let device = try await client.device()
            let page = LiveIdentityServer.Page()
            let first = try await live.qrSession(for: page)
            _ = try await client.approve(try await client.scan(first.payload), check: .pin("27491"))
            let redeemed = try APIClient.decode(TokenPairResponse.self, from: try await live.redeem(first, by: page).body)
            let second = try await live.qrSession(for: page)
            _ = try await client.approve(try await client.scan(second.payload), check: .pin("27491"))
            try await live.api.callExpectingNoContent(
                "DELETE", "/v1/identity/devices/\(device.id)", credential: .bearer(tokens.accessToken))
            #expect(try await live.redeem(second, by: page).status == 409)
            await #expect(throws: APIClientError.self) { try await live.api.me(accessToken: redeemed.accessToken) }
            await #expect(throws: APIClientError.self) { try await live.api.refresh(redeemed.refreshToken) }
        }
    }

    @Test("two redemptions of one code may wait at once; a third gets 429 with Retry-After")
    func waitingCap() async throws {
        try await LiveIdentityServer.run { live in
            let page = LiveIdentityServer.Page()
            let session = try await live.qrSession(for: page)
            // Three at once, each willing to wait 25 s (the most the server allows, so the first two
            // still wait when the third arrives, however loaded the machine): two wait, the third
            // is refused.
            let answers = try await withThrowingTaskGroup(of: HTTPResponseData.self) { group in
                for _ in 0..<3 { group.addTask { try await live.redeem(session, by: page, wait: 25) } }
                return try await group.reduce(into: [HTTPResponseData]()) { $0.append($1) }
            }
            #expect(answers.filter { $0.status == 202 }.count == 2, "\(answers.map(\.status))")
            let refused = try #require(answers.first { $0.status == 429 })
            #expect(refused.header("Retry-After") == "2")
        }
    }
}
