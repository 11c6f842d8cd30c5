import Foundation
import PWAKitAPI
import PWAKitIdentity
import PWAKitModules
import PWAKitTesting
import Testing

@testable import PWAKitServer

@Suite("Passwordless sign-in by email with PKCE", .enabled(if: smtpAvailable))
struct MagicLinkTests {
    @Test("the link mailed through a real SMTP server signs in the device that asked, once; the link alone signs in nobody")
    func signIn() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        try await LiveIdentityServer.run(configure: {
            $0.mailer = mailer
            $0.mailFrom = "sign-in@example.com"
            $0.publicOrigin = "https://id.example.com"
        }) { live in
            let (user, _) = try await live.account()
            let deviceStore: any SecureStore = InMemorySecureStore()
            let device = MagicLinkClient(api: live.api, store: deviceStore)
            try await device.request(email: user.email)
            #expect(try await device.awaitedEmail() == user.email)
            let body = try await smtp.nextMessageBody()
            let link = try #require(body.split(separator: "\n").first { $0.contains("token=") }.map(String.init))
            // The link is built from the configured public URL, never from the request's headers.
            #expect(link.hasPrefix("https://id.example.com/v1/auth/magic-link/open?token="))
            // Another device (or a mail scanner) with the link and no verifier gets nothing.
            let other = MagicLinkClient(api: live.api, store: InMemorySecureStore())
            let stranger = await #expect(throws: IdentityError.self) { try await other.complete(link: link) }
            #expect(stranger?.code == .invalidCode)
            let token = try #require(URLComponents(string: link)?.queryItems?.first { $0.name == "token" }?.value)
            let guessed = try await live.api.exchange(
                "POST", "/v1/auth/magic-link/token",
                body: try APIClient.encode(MagicLinkTokenRequest(token: token, codeVerifier: String(repeating: "a", count: 43))),
                idempotent: false)
            #expect(guessed.status == 401)
            #expect(APIClient.error(from: guessed).field == "codeVerifier")
            let kept = try #require(try await deviceStore.value(for: "magic-link", app: "pwakit.identity"))
            let realVerifier = try #require(
                (try JSONSerialization.jsonObject(with: Data(kept.utf8)) as? [String: Any])?["verifier"] as? String)
            let tokens = try await device.complete(link: link)
            #expect(tokens.user.id == user.id)
            #expect(try await live.api.me(accessToken: tokens.accessToken).id == user.id)
            // Used: the device no longer waits for it, and the server refuses it with any verifier.
            await #expect(throws: IdentityError.self) { try await device.complete(link: link) }
            // NB: with the verifier that worked: a wrong one is refused even for an unused link.
            let replayed = try await live.api.exchange(
                "POST", "/v1/auth/magic-link/token",
                body: try APIClient.encode(MagicLinkTokenRequest(token: token, codeVerifier: realVerifier)),
                idempotent: false)
            #expect(replayed.status == 401)
            #expect(APIClient.error(from: replayed).field != "codeVerifier", "refused as used, not for its verifier")
            let page = try await live.api.exchange("GET", "/v1/auth/magic-link/open?token=\(token)")
            #expect(page.status == 200)
            #expect(!String(decoding: page.body, as: UTF8.self).contains(token))
        }
    }

    @Test("an address without an account gets the same answer and no mail; replays and expired links are refused")
    func sameAnswerReplaysExpiry() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        try await LiveIdentityServer.run(configure: {
            $0.mailer = mailer
            $0.magicLinkBase = "https://app.example.com/auth/magic"
        }) { live in
            let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            let unknown = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(MagicLinkRequest(email: "nobody@example.com", codeChallenge: challenge)),
                idempotent: false)
            let (user, _) = try await live.account()
            let known = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(MagicLinkRequest(email: user.email, codeChallenge: challenge)), idempotent: false)
            #expect(unknown.status == 202)
            #expect(known.status == 202)
            #expect(unknown.body == known.body)
            // Only the account's mail arrives (it is the first message the server receives).
            let body = try await smtp.nextMessageBody()
            #expect(body.contains("Hello"))
            let token = try #require(
                body.split(separator: "\n").first { $0.contains("token=") }
                    .flatMap { URLComponents(string: String($0))?.queryItems?.first { $0.name == "token" }?.value })
            // The RFC 7636 example verifier for that challenge.
            let exchange = MagicLinkTokenRequest(token: token, codeVerifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")
            #expect(try await live.server.magicLinks.exchange(exchange).user.id == user.id)
            let service = live.server.magicLinks
            let accepted = await withTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        var accepted = 0
                        for _ in 0..<1_250 where (try? await service.exchange(exchange)) != nil { accepted += 1 }
                        return accepted
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(accepted == 0)
            // A link used after its ten minutes is refused.
            _ = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(MagicLinkRequest(email: user.email, codeChallenge: challenge)), idempotent: false)
            let late = try #require(
                try await smtp.nextMessageBody().split(separator: "\n").first { $0.contains("token=") }
                    .flatMap { URLComponents(string: String($0))?.queryItems?.first { $0.name == "token" }?.value })
            live.clock.advance(10 * 60)
            await #expect(throws: APIError.self) {
                try await service.exchange(MagicLinkTokenRequest(token: late, codeVerifier: exchange.codeVerifier))
            }
        }
    }

    @Test(
        "links are limited per address and per client; bad input names its field; without a mailer the answer is 503 for everyone"
    )
    func limitsAndInput() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        try await LiveIdentityServer.run(configure: {
            $0.mailer = mailer
            $0.magicLinkEmailLimit = 3
            $0.magicLinkAddressLimit = 5
            $0.trustForwardedFor = true
            $0.publicOrigin = "https://id.example.com"
        }) { live in
            let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"
            func ask(_ email: String, from address: String) async throws -> Int {
                try await live.api.exchange(
                    "POST", "/v1/auth/magic-link",
                    body: try APIClient.encode(MagicLinkRequest(email: email, codeChallenge: challenge)),
                    headers: ["X-Forwarded-For": address], idempotent: false
                ).status
            }
            // Per address: one email asked for four times, from one client.
            var statuses: [Int] = []
            for _ in 0..<4 { statuses.append(try await ask("limit@example.com", from: "198.51.100.1")) }
            #expect(statuses == [202, 202, 202, 429])
            // Per client: six different emails from one client, each under its own limit.
            statuses = []
            for index in 0..<6 { statuses.append(try await ask("client\(index)@example.com", from: "198.51.100.2")) }
            #expect(statuses == [202, 202, 202, 202, 202, 429])
            // Another client is not held back by either.
            #expect(try await ask("other@example.com", from: "198.51.100.3") == 202)
            for (body, field) in [
                (#"{"email":"x","codeChallenge":"\#(challenge)","codeChallengeMethod":"S256"}"#, "email"),
                (#"{"email":"a@example.com","codeChallenge":"short","codeChallengeMethod":"S256"}"#, "codeChallenge"),
                (
                    #"{"email":"a@example.com","codeChallenge":"\#(challenge)","codeChallengeMethod":"plain"}"#,
                    "codeChallengeMethod"
                ),
                (#"{"email":"a@example.com"}"#, "codeChallenge"),
            ] {
                let response = try await live.api.exchange(
                    "POST", "/v1/auth/magic-link", body: Data(body.utf8), idempotent: false)
                #expect(response.status == 400)
                #expect(APIClient.error(from: response).field == field)
            }
            let badVerifier = try await live.api.exchange(
                "POST", "/v1/auth/magic-link/token", body: Data(#"{"token":"t","codeVerifier":"short"}"#.utf8),
                idempotent: false)
            #expect(APIClient.error(from: badVerifier).field == "codeVerifier")
        }
        // A mailer but no public URL: links would have to be built from request headers, so none is sent.
        try await LiveIdentityServer.run(configure: { $0.mailer = mailer }) { live in
            let response = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(
                    MagicLinkRequest(email: "a@example.com", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")),
                headers: ["Origin": "https://evil.example"], idempotent: false)
            #expect(response.status == 503)
            #expect(response.errorCode == "mail_unavailable")
        }
        try await LiveIdentityServer.run { live in
            let response = try await live.api.exchange(
                "POST", "/v1/auth/magic-link",
                body: try APIClient.encode(
                    MagicLinkRequest(email: "a@example.com", codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")),
                idempotent: false)
            #expect(response.status == 503)
            #expect(response.errorCode == "mail_unavailable")
        }
    }

    @Test("a link with two tokens is refused, and a kept request that cannot be read is corrupt_store, never 'did not ask'")
    func hostileLinksAndDamagedRequest() async throws {
        // NB: nothing here reaches the server: a port nothing listens on.
        let api = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, clock: ImmediateClock())
        let store: any SecureStore = InMemorySecureStore()
        let device = MagicLinkClient(api: api, store: store)
        try await store.set(
            #"{"email":"a@example.com","verifier":"v","requestedAt":"2026-01-01T00:00:00Z"}"#, for: "magic-link",
            app: "pwakit.identity")
        for link in ["https://id.example.com/open?token=a&token=b", "https://id.example.com/open?x=1", "not a link?token="] {
            let refused = await #expect(throws: IdentityError.self) { try await device.complete(link: link) }
            #expect(refused?.code == .invalidCode, "\(link)")
            #expect(refused?.field == "link", "\(link)")
        }
        try await store.set("{not json", for: "magic-link", app: "pwakit.identity")
        let damaged = await #expect(throws: IdentityError.self) {
            try await device.complete(link: "https://id.example.com/open?token=abc")
        }
        #expect(damaged?.code == .corruptStore)
        #expect(damaged?.field == "magic-link")
        await #expect(throws: IdentityError.self) { try await device.awaitedEmail() }
        #expect(try await store.value(for: "magic-link", app: "pwakit.identity") == "{not json", "left for a new request")
    }

    @Test("the SMTP client refuses addresses that could inject commands, and names an unusable URL")
    func smtpInput() async throws {
        let smtp = try await LocalSMTPServer()
        let mailer = try localMailer("smtp://127.0.0.1:\(smtp.port)")
        for address in [
            "a@b.c>\r\nRCPT TO:<x@y.z", "no-at-sign", "a b@c.d", "@c.d", String(repeating: "a", count: 250) + "@b.cd",
        ] {
            await #expect(throws: MailError.self) {
                try await mailer.send(MailMessage(from: "s@example.com", to: address, subject: "s", text: "t"))
            }
        }
        for url in ["http://host", "smtp://", "smtp://user:pw@host:25", "not a url"] {
            #expect(throws: MailError.self) { try SMTPMailer(url: url) }
        }
        try await mailer.send(
            MailMessage(from: "s@example.com", to: "r@example.com", subject: "Grüße\r\nBcc: x@y.z", text: ".\r\n.leading dot"))
        #expect(try await smtp.nextMessageBody() == ".\r\n.leading dot")
        let refused = await #expect(throws: MailError.self) {
            try await localMailer("smtp://127.0.0.1:\(try LocalSMTPServer.freePort())").send(
                MailMessage(from: "s@example.com", to: "r@example.com", subject: "s", text: "t"))
        }
        #expect(refused?.isTransient == true)
    }
}
