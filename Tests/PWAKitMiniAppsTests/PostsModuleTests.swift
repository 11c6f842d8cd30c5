import Foundation
import PWAKitAPI
import PWAKitCore
import PWAKitMiniApps
import PWAKitModules
import PWAKitShare
import Synchronization
import Testing

@Suite("posts module: shared links and their status through the bridge")
struct PostsModuleTests {
    static func context(origin: String = "app://launcher") throws -> ModuleContext {
        let configuration = try ConfigurationLoader.load(
            from: Data(
                #"{"version":1,"app":{"name":"PWAKit","bundleId":"pwakit.launcher","startUrl":"app://launcher/index.html"},"origins":{"allowed":["launcher"]}}"#
                    .utf8))
        return ModuleContext(
            callID: "1", caller: BridgeCaller(origin: origin, pageLoad: PageLoadID(rawValue: 1), grant: .all),
            app: AppIdentity(name: "PWAKit", bundleID: "pwakit.launcher"), configuration: configuration, emit: { _ in })
    }

    static func call(_ module: PostsModule, _ action: String, _ payload: JSONValue? = nil) async throws -> JSONValue? {
        try await module.handle(action: action, payload: payload, context: try context())
    }

    @Test("a share becomes a post with its canonical URL and a pending status; the same page again is the same post")
    func shareListGet() async throws {
        try await LivePlatform.run { platform in
            let (account, _) = try await platform.signedInAccount()
            let outbox = try ShareOutbox(directory: temporaryDirectory("outbox"))
            let module = PostsModule(account: account, outbox: outbox)
            let shared = try await Self.call(
                module, "share", .object(["url": "https://Example.com/a?utm_source=mail&id=7", "note": "read later"]))
            #expect(shared?["state"]?.stringValue == "posted")
            #expect(shared?["created"] == .bool(true))
            let post = try #require(shared?["post"])
            #expect(post["canonicalUrl"]?.stringValue == "https://example.com/a?id=7")
            #expect(post["status"]?.stringValue == "pending")
            #expect(post["instructions"]?.stringValue == "read later")
            let again = try await Self.call(module, "share", .object(["url": "https://example.com/a?id=7&fbclid=x"]))
            #expect(again?["created"] == .bool(false))
            #expect(again?["post"]?["id"] == post["id"])

            let page = try await Self.call(module, "list", .object(["limit": .number(10)]))
            #expect(page?["posts"]?.arrayValue?.count == 1)
            let id = try #require(post["id"]?.stringValue)
            let one = try await Self.call(module, "get", .object(["id": .string(id)]))
            #expect(one?["status"]?.stringValue == "pending")
            #expect(one?["createdAt"]?.stringValue?.hasSuffix("Z") == true, "dates in ISO 8601")
            let missing = await #expect(throws: BridgeError.self) {
                _ = try await Self.call(module, "get", .object(["id": .string(UUID().uuidString)]))
            }
            #expect(missing?.code == .module("posts", "not_found"))
            let pending = try await Self.call(module, "pending")
            #expect(pending?["waiting"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("a share whose answer is lost (503) waits in the outbox; the next list sends it again and it is still one post")
    func keptThenSent() async throws {
        try await LivePlatform.run { platform in
            let (account, _) = try await platform.signedInAccount()
            let outbox = try ShareOutbox(directory: temporaryDirectory("outbox"))
            let module = PostsModule(account: account, outbox: outbox)
            platform.transport.rewrite.withLock {
                $0 = { request, response in
                    request.url.path == "/v1/posts" && request.method == "POST"
                        ? HTTPResponseData(status: 503, body: Data(#"{"error":{"code":"unavailable","message":"busy"}}"#.utf8))
                        : response
                }
            }
            let kept = try await Self.call(module, "share", .object(["url": "https://example.com/later"]))
            #expect(kept?["state"]?.stringValue == "kept")
            #expect(kept?["post"] == nil)
            #expect(try await Self.call(module, "pending")?["waiting"]?.arrayValue?.count == 1)
            // NB: the server stored it; only its answer was replaced, as a dropped connection would.
            #expect(try await Self.call(module, "list", .object([:]))?["posts"]?.arrayValue?.count == 1)
            #expect(try await Self.call(module, "pending")?["waiting"]?.arrayValue?.count == 1)

            platform.transport.rewrite.withLock { $0 = nil }
            let page = try await Self.call(module, "list", .object([:]))
            #expect(page?["posts"]?.arrayValue?.count == 1, "sent again, still one post")
            #expect(page?["posts"]?.arrayValue?.first?["url"]?.stringValue == "https://example.com/later")
            #expect(try await Self.call(module, "pending")?["waiting"]?.arrayValue?.isEmpty == true)
        }
    }

    @Test("a malformed answer of the server is posts.failed with no payload path; its refusal of a page value names it")
    func serverFaultsNameNoPayloadPath() async throws {
        try await LivePlatform.run { platform in
            let (account, _) = try await platform.signedInAccount()
            let module = PostsModule(account: account, outbox: try ShareOutbox(directory: temporaryDirectory("outbox")))
            platform.transport.rewrite.withLock {
                $0 = { request, response in
                    request.url.path == "/v1/posts" && request.method == "GET"
                        ? HTTPResponseData(status: 200, body: Data(#"{"posts":[{"id":1}]}"#.utf8))
                        : response
                }
            }
            let malformed = await #expect(throws: BridgeError.self) { _ = try await Self.call(module, "list", .object([:])) }
            #expect(malformed?.code == .module("posts", "failed"), "\(String(describing: malformed))")
            #expect(malformed?.details?["path"] == nil)
            #expect(malformed?.message.contains("payload.") == false)

            platform.transport.rewrite.withLock { $0 = nil }
            // A cursor this server never gave is what the page sent: invalid_payload naming it.
            let cursor = await #expect(throws: BridgeError.self) {
                _ = try await Self.call(module, "list", .object(["cursor": "bogus"]))
            }
            #expect(cursor?.code == .invalidPayload)
            #expect(cursor?.details?["path"]?.stringValue == "payload.cursor")
        }
    }

    @Test("signed out, a share is kept for later and reading says not signed in")
    func signedOut() async throws {
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport())
        let outbox = try ShareOutbox(directory: temporaryDirectory("outbox"))
        let module = PostsModule(account: AccountSession(client: offline, vault: InMemorySecureStore()), outbox: outbox)
        let kept = try await Self.call(module, "share", .object(["url": "https://example.com/x"]))
        #expect(kept?["state"]?.stringValue == "kept")
        #expect(try outbox.pending().count == 1)
        let error = await #expect(throws: BridgeError.self) { _ = try await Self.call(module, "list", .object([:])) }
        #expect(error?.code == .module("posts", "not_signed_in"))
    }

    @Test("malformed, hostile and oversized payloads are refused naming the field; nothing is queued")
    func hostilePayloads() async throws {
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport())
        let outbox = try ShareOutbox(directory: temporaryDirectory("outbox"))
        let module = PostsModule(account: AccountSession(client: offline, vault: InMemorySecureStore()), outbox: outbox)
        let cases: [(String, JSONValue?, String)] = [
            ("share", nil, "payload"),
            ("share", .object(["url": .number(1)]), "payload.url"),
            ("share", .object(["url": "javascript:alert(1)"]), "payload.url"),
            ("share", .object(["url": "https://user:pass@example.com/"]), "payload.url"),
            ("share", .object(["url": "http://[::1%25eth0]/"]), "payload.url"),
            ("share", .object(["url": .string("https://example.com/" + String(repeating: "a", count: 3000))]), "payload.url"),
            (
                "share", .object(["url": "https://example.com/", "note": .string(String(repeating: "n", count: 5000))]),
                "payload.note"
            ),
            ("list", .object(["limit": .number(0)]), "payload.limit"),
            ("list", .object(["limit": .number(101)]), "payload.limit"),
            ("list", .object(["cursor": .string(String(repeating: "c", count: 600))]), "payload.cursor"),
            ("get", .object(["id": ""]), "payload.id"),
            ("get", .object(["id": "../admin"]), "payload.id"),
            ("get", .object(["id": "a?b=c"]), "payload.id"),
        ]
        for (action, payload, path) in cases {
            let error = await #expect(throws: BridgeError.self, "\(action) \(String(describing: payload))") {
                _ = try await Self.call(module, action, payload)
            }
            #expect(error?.code == .invalidPayload, "\(action): \(String(describing: error))")
            let named = error?.details?["path"]?.stringValue ?? error?.message ?? ""
            #expect(named.hasPrefix(path), "\(action) \(String(describing: payload)): \(String(describing: error))")
        }
        #expect(try outbox.pending().isEmpty, "nothing refused was queued")
    }

    @Test(
        "any origin but the launcher's own page is refused, whatever its grant",
        arguments: ["app://quiz", "https://launcher", "null"])
    func otherOrigins(_ origin: String) async throws {
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: UnreachableTransport())
        let module = PostsModule(
            account: AccountSession(client: offline, vault: InMemorySecureStore()),
            outbox: try ShareOutbox(directory: temporaryDirectory("outbox")))
        for (action, payload) in [
            ("share", JSONValue.object(["url": "https://example.com/"])), ("list", .object([:])), ("get", .object(["id": "x"])),
            ("pending", nil),
        ] {
            let error = await #expect(throws: BridgeError.self) {
                _ = try await module.handle(action: action, payload: payload, context: try Self.context(origin: origin))
            }
            #expect(error?.code == .permissionDenied)
        }
    }
}
