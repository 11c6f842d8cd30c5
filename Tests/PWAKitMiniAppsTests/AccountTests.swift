import Foundation
import PWAKitAPI
import PWAKitMiniApps
import PWAKitModules
import PWAKitServer
import Synchronization
import Testing

@Suite("Account session against a live server")
struct AccountTests {
    @Test("sign in, me, the session kept only in the secure store, restored offline")
    func signInAndRestore() async throws {
        try await LivePlatform.run { platform in
            let (account, vault) = try await platform.signedInAccount(email: "ada@example.com")
            guard case .signedIn(let user) = await account.state else { throw TestFailure("not signed in") }
            #expect(user.email == "ada@example.com")
            #expect(try await account.me().email == "ada@example.com")
            let kept = try #require(try await vault.value(for: "session", app: AccountSession.secureStoreApp))
            #expect(kept.contains("refreshToken"))
            #expect(!kept.contains("accessToken"))
            // A new launch, with the server unreachable: still signed in from the stored session.
            let offline = AccountSession(
                client: APIClient(baseURL: platform.baseURL, transport: UnreachableTransport()), vault: vault)
            #expect(try await offline.restore() == .signedIn(user))
        }
    }

    @Test("100 concurrent callers of an expired access token cause one refresh request")
    func singleFlight() async throws {
        try await LivePlatform.run { platform in
            let vault: any SecureStore = InMemorySecureStore()
            let clock = ManualDate()
            let account = AccountSession(client: platform.client, vault: vault, now: { clock.now })
            try await account.register(email: "bob@example.com", password: "correct horse battery")
            _ = try await account.accessToken()
            clock.advance(by: 3600)
            platform.transport.reset()
            let tokens = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<100 { group.addTask { try await account.accessToken() } }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
            #expect(tokens.count == 1)
            // NB: not "differs from the first token": the server's clock is real, and a token issued again
            // within the same second for the same session is the same bytes. The one refresh request is the proof.
            #expect(platform.transport.requests.filter { $0 == "POST /v1/auth/refresh" }.count == 1)
            #expect(await account.refreshCount == 1)
            #expect(try await account.me().email == "bob@example.com")
        }
    }

    @Test("a reused refresh token signs out and wipes the stored session")
    func reuseSignsOut() async throws {
        // NB: both parties share 127.0.0.1 here; within the server's grace window the same address presenting a
        // just-used token is answered as a retry after a lost response, so the window is off for this theft.
        try await LivePlatform.run(configure: { $0.refreshReuseGrace = 0 }) { platform in
            let vault: any SecureStore = InMemorySecureStore()
            let clock = ManualDate()
            let account = AccountSession(client: platform.client, vault: vault, now: { clock.now })
            try await account.register(email: "eve@example.com", password: "correct horse battery")
            let stolen = try #require(try await vault.value(for: "session", app: AccountSession.secureStoreApp))
            let refreshToken = try #require(
                (try JSONSerialization.jsonObject(with: Data(stolen.utf8)) as? [String: Any])?["refreshToken"] as? String)
            // Someone else uses the refresh token first.
            _ = try await platform.client.refresh(refreshToken)
            clock.advance(by: 3600)
            let error = await #expect(throws: APIClientError.self) { try await account.accessToken() }
            #expect(error?.code == .sessionExpired)
            #expect(await account.state == .expired)
            #expect(try await vault.value(for: "session", app: AccountSession.secureStoreApp) == nil)
        }
    }

    @Test("sign out revokes the session on the server and wipes it here")
    func signOutRevokes() async throws {
        try await LivePlatform.run { platform in
            let (account, vault) = try await platform.signedInAccount()
            let kept = try #require(try await vault.value(for: "session", app: AccountSession.secureStoreApp))
            let refreshToken = try #require(
                (try JSONSerialization.jsonObject(with: Data(kept.utf8)) as? [String: Any])?["refreshToken"] as? String)
            _ = try await account.accessToken()
            try await account.signOut()
            #expect(await account.state == .signedOut)
            #expect(try await vault.value(for: "session", app: AccountSession.secureStoreApp) == nil)
            let error = await #expect(throws: APIClientError.self) { try await platform.client.refresh(refreshToken) }
            #expect(error?.status == 401)
        }
    }

    /// A vault that keeps secrets but refuses to delete them (a keyring that says no).
    struct UndeletableVault: SecureStore {
        let inner = InMemorySecureStore()
        var backend: String { "undeletable" }
        func set(_ value: String, for key: String, app: String) async throws { await inner.set(value, for: key, app: app) }
        func value(for key: String, app: String) async throws -> String? { await inner.value(for: key, app: app) }
        func delete(_ key: String, app: String) async throws -> Bool {
            throw MiniAppError(.storageFailed, "the keyring refused")
        }
    }

    @Test("a sign-out whose session the vault will not delete says so, and still revokes it on the server")
    func signOutThatCannotDelete() async throws {
        try await LivePlatform.run { platform in
            let vault = UndeletableVault()
            let account = AccountSession(client: platform.client, vault: vault)
            try await account.register(
                email: "user-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "correct horse battery")
            let kept = try #require(try await vault.value(for: "session", app: AccountSession.secureStoreApp))
            let refreshToken = try #require(
                (try JSONSerialization.jsonObject(with: Data(kept.utf8)) as? [String: Any])?["refreshToken"] as? String)
            _ = try await account.accessToken()
            let failure = await #expect(throws: MiniAppError.self) { try await account.signOut() }
            #expect(failure?.code == .storageFailed)
            #expect(failure?.field == "session")
            #expect(failure?.message.contains("could not be removed") == true)
            #expect(await account.state == .signedOut)
            let refused = await #expect(throws: APIClientError.self) { try await platform.client.refresh(refreshToken) }
            #expect(refused?.status == 401, "revoked on the server all the same")
        }
    }

    /// A vault whose next save of the session waits until ``release()``.
    final class GatedVault: SecureStore {
        let inner = InMemorySecureStore()
        let gate = Mutex<(armed: Bool, entered: Bool, waiting: CheckedContinuation<Void, Never>?)>((false, false, nil))
        var backend: String { "gated" }
        func arm() { gate.withLock { $0.armed = true } }
        var entered: Bool { gate.withLock { $0.entered } }
        func release() { gate.withLock { $0.waiting.take() }?.resume() }
        func set(_ value: String, for key: String, app: String) async throws {
            let wait = gate.withLock { gate -> Bool in
                guard gate.armed, key == "session" else { return false }
                gate.armed = false
                return true
            }
            if wait {
                await withCheckedContinuation { continuation in
                    gate.withLock {
                        $0.waiting = continuation
                        $0.entered = true
                    }
                }
            }
            await inner.set(value, for: key, app: app)
        }
        func value(for key: String, app: String) async throws -> String? { await inner.value(for: key, app: app) }
        /// Whether deletes are refused (a keyring that cannot remove items).
        let refusesDeletes = Mutex(false)
        func delete(_ key: String, app: String) async throws -> Bool {
            if refusesDeletes.withLock({ $0 }) { throw TestFailure("the keyring refuses to delete \(key)") }
            return await inner.delete(key, app: app)
        }
    }

    /// A signed-in account whose refresh has started and waits in the vault's save of its new session.
    static func refreshHeldAtSave(
        _ platform: LivePlatform
    ) async throws -> (AccountSession, GatedVault, Task<String, any Error>) {
        let vault = GatedVault()
        // NB: a margin longer than any token's life: every access token asked for is refreshed.
        let account = AccountSession(client: platform.client, vault: vault, refreshMargin: 1e9)
        try await account.register(
            email: "user-\(UUID().uuidString.prefix(8).lowercased())@example.com", password: "correct horse battery")
        vault.arm()
        let refresh = Task { try await account.accessToken() }
        while !vault.entered { await Task.yield() }
        return (account, vault, refresh)
    }

    @Test("a sign-out while a refresh saves its new session wins: nothing is kept, the state stays signed out")
    func signOutDuringRefreshSave() async throws {
        try await LivePlatform.run { platform in
            let (account, vault, refresh) = try await Self.refreshHeldAtSave(platform)
            try await account.signOut()
            vault.release()
            await #expect(throws: APIClientError.self) { try await refresh.value }
            #expect(await account.state == .signedOut)
            #expect(try await vault.value(for: "session", app: AccountSession.secureStoreApp) == nil)
            #expect(try await vault.value(for: "profile", app: AccountSession.secureStoreApp) == nil)
        }
    }

    @Test("a sign-out during a refresh's save, with a vault that cannot delete: the refresh says the session is still kept")
    func signOutDuringRefreshSaveVaultRefuses() async throws {
        try await LivePlatform.run { platform in
            let (account, vault, refresh) = try await Self.refreshHeldAtSave(platform)
            vault.refusesDeletes.withLock { $0 = true }
            await #expect(throws: MiniAppError.self) { try await account.signOut() }
            vault.release()
            let failure = await #expect(throws: MiniAppError.self) { try await refresh.value }
            #expect(failure?.code == .storageFailed)
            #expect(failure?.field == "session")
            #expect(await account.state == .signedOut)
        }
    }

    @Test("an unreadable stored session is store_corrupt naming it, its refresh token revoked, the item kept")
    func unreadableSessionRevoked() async throws {
        try await LivePlatform.run { platform in
            let (_, vault) = try await platform.signedInAccount()
            let kept = try #require(try await vault.value(for: "session", app: AccountSession.secureStoreApp))
            var object = try #require(try JSONSerialization.jsonObject(with: Data(kept.utf8)) as? [String: Any])
            let refreshToken = try #require(object["refreshToken"] as? String)
            object["user"] = "no longer a user"
            let damaged = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
            try await vault.set(damaged, for: "session", app: AccountSession.secureStoreApp)

            let account = AccountSession(client: platform.client, vault: vault)
            let error = await #expect(throws: MiniAppError.self) { try await account.restore() }
            #expect(error?.code == .storeCorrupt)
            #expect(error?.field == "session")
            #expect(await account.state == .signedOut)
            #expect(
                try await vault.value(for: "session", app: AccountSession.secureStoreApp) == damaged, "reported, not deleted")
            // The token that could still be read no longer buys a session.
            let refused = await #expect(throws: APIClientError.self) { try await platform.client.refresh(refreshToken) }
            #expect(refused?.status == 401)
        }
    }

    @Test(
        "a stored session with no token for this server is store_corrupt, kept, and sends nothing",
        arguments: ["not json", #"{"refreshToken":"r","server":"https://elsewhere.example","user":7}"#])
    func unreadableSessionKept(_ damaged: String) async throws {
        let transport = RecordingOfflineTransport()
        let vault: any SecureStore = InMemorySecureStore()
        try await vault.set(damaged, for: "session", app: AccountSession.secureStoreApp)
        let account = AccountSession(
            client: APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: transport), vault: vault)
        let error = await #expect(throws: MiniAppError.self) { try await account.restore() }
        #expect(error?.code == .storeCorrupt)
        #expect(error?.field == "session")
        #expect(await account.state == .signedOut)
        #expect(try await vault.value(for: "session", app: AccountSession.secureStoreApp) == damaged)
        #expect(transport.requests.isEmpty, "a token whose server is unknown is sent nowhere")
    }

    @Test("the login screen says why an unreadable stored session was not restored")
    @MainActor
    func unreadableSessionNotice() async throws {
        let vault: any SecureStore = InMemorySecureStore()
        try await vault.set("not json", for: "session", app: AccountSession.secureStoreApp)
        let offline = APIClient(baseURL: URL(string: "http://127.0.0.1:9")!, transport: RecordingOfflineTransport())
        let root = RootModel(account: AccountSession(client: offline, vault: vault))
        await root.start()
        #expect(root.route == .login)
        #expect(root.notice?.contains("cannot be read") == true, "\(String(describing: root.notice))")
        root.stop()
    }

    @Test("a wrong password keeps the state signed out and reports the server's code")
    func wrongPassword() async throws {
        try await LivePlatform.run { platform in
            let account = AccountSession(client: platform.client, vault: InMemorySecureStore())
            let states = await account.states()
            let error = await #expect(throws: APIClientError.self) {
                try await account.signIn(email: "nobody@example.com", password: "wrong password")
            }
            #expect(error?.code == .init("invalid_credentials"))
            #expect(await account.state == .signedOut)
            var seen: [AccountState] = []
            for await state in states {
                seen.append(state)
                if seen.count == 3 { break }
            }
            #expect(seen == [.signedOut, .signingIn, .signedOut])
        }
    }

    @Test("a locked session hands out no token until unlocked")
    func locking() async throws {
        try await LivePlatform.run { platform in
            let (account, _) = try await platform.signedInAccount()
            await account.lock()
            let error = await #expect(throws: APIClientError.self) { try await account.accessToken() }
            #expect(error?.code == .notSignedIn)
            await account.unlock()
            _ = try await account.accessToken()
        }
    }
}

/// A transport for a device with no network.
struct UnreachableTransport: HTTPTransport {
    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        throw APIClientError(.network, "cannot reach the server: this device is offline")
    }
}

/// A transport for a device with no network that records every request it was asked to send.
final class RecordingOfflineTransport: HTTPTransport {
    private let sent = Mutex<[String]>([])
    /// The requests asked for, as `METHOD path`.
    var requests: [String] { sent.withLock { $0 } }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        sent.withLock { $0.append("\(request.method) \(request.url.path)") }
        throw APIClientError(.network, "cannot reach the server: this device is offline")
    }
}

/// Wall-clock time a test moves by hand.
final class ManualDate: Sendable {
    private let current = Mutex(Date())
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}
