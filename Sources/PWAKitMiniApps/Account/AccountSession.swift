public import Foundation
public import PWAKitAPI
import PWAKitErrors
public import PWAKitModules

/// The person's account on this device: sign-in, registration, sign-out (revoked on the server),
/// and access tokens refreshed ahead of expiry with a single request however many callers
/// wait for one.
///
/// Tokens live only in memory and in the ``SecureStore`` (Secret Service on Linux, the Keychain
/// on Apple), never in files, URLs or logs. When the server refuses the refresh token
/// (`refresh_token_reused`, `invalid_refresh_token`) the stored session is wiped and the state
/// becomes ``AccountState/expired``. A stored session that cannot be decoded is `store_corrupt`
/// naming `session`, never a silent sign-out: its refresh token is revoked on the server when it
/// can still be read and belongs to this server, and the item is left as it is (the next sign-in
/// replaces it).
public actor AccountSession: AccessTokenSource {
    /// The secure-store partition the session is kept in.
    public static let secureStoreApp = "pwakit.account"
    static let secureStoreKey = "session"
    /// The vault key of the profile shown while locked.
    static let profileKey = "profile"

    /// The server.
    public nonisolated let client: APIClient
    private let vault: any SecureStore
    private let now: @Sendable () -> Date
    /// How long before expiry an access token is refreshed.
    public nonisolated let refreshMargin: TimeInterval

    /// The current state.
    public private(set) var state: AccountState = .signedOut {
        didSet { if state != oldValue { for observer in observers.values { observer.yield(state) } } }
    }
    private var observers: [UUID: AsyncStream<AccountState>.Continuation] = [:]
    private var stored: StoredSession?
    private var access: (token: String, expires: Date)?
    private var refreshing: Task<String, any Error>?
    /// Refresh requests sent to the server (what the single flight keeps at one).
    public private(set) var refreshCount = 0

    /// Creates a session; call ``restore()`` to pick up one kept from an earlier launch.
    public init(
        client: APIClient, vault: any SecureStore, refreshMargin: TimeInterval = 60,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.vault = vault
        self.refreshMargin = refreshMargin
        self.now = now
    }

    /// The states from now on, starting with the current one.
    public func states() -> AsyncStream<AccountState> {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: AccountState.self, bufferingPolicy: .bufferingNewest(16))
        continuation.yield(state)
        observers[id] = continuation
        continuation.onTermination = { _ in Task { await self.removeObserver(id) } }
        return stream
    }

    private func removeObserver(_ id: UUID) { observers[id] = nil }

    /// Reads the session kept from an earlier launch: signed in (offline too) when there is one
    /// for this server, signed out otherwise.
    ///
    /// A kept session that cannot be decoded throws ``MiniAppError`` `store_corrupt` naming
    /// `session`, with the state signed out; see ``AccountSession``.
    @discardableResult
    public func restore() async throws -> AccountState {
        let text: String?
        do {
            text = try await vault.value(for: Self.secureStoreKey, app: Self.secureStoreApp)
        } catch let error as MiniAppError
            where (error.code == .notSignedIn && error.field == "session") || error.field == BiometricGate.settingsKey
        {
            // A biometric gate holds the session (or cannot tell whether it may release it): locked, as the
            // kept profile says who.
            guard let profile = try await self.profile() else { throw error }
            state = .locked(profile.user)
            return state
        }
        guard let text else {
            state = .signedOut
            return state
        }
        let session = try await decodeStored(text)
        guard session.server == client.baseURL.absoluteString else {
            _ = try await vault.delete(Self.secureStoreKey, app: Self.secureStoreApp)
            state = .signedOut
            return state
        }
        stored = session
        state = .signedIn(session.user)
        return state
    }

    /// Creates an account and signs in with it.
    @discardableResult
    public func register(email: String, password: String, displayName: String? = nil) async throws -> UserResponse {
        _ = try await client.register(RegisterRequest(email: email, password: password, displayName: displayName))
        return try await signIn(email: email, password: password)
    }

    /// Signs in; the state is ``AccountState/signingIn`` meanwhile and goes back on failure.
    @discardableResult
    public func signIn(email: String, password: String) async throws -> UserResponse {
        let before = state
        state = .signingIn
        do {
            let pair = try await client.login(LoginRequest(email: email, password: password))
            try await keep(pair)
            return pair.user
        } catch {
            if state == .signingIn { state = before }
            throw error
        }
    }

    /// Signs out: the server revokes the session (best effort when offline) and the stored tokens
    /// are wiped whatever the server said.
    ///
    /// - Throws: ``MiniAppError`` `storage_failed` naming `session` when the secure store refused
    ///   to delete the kept session: signed out in this run, but the next launch would find it
    ///   (the server was still asked to revoke it).
    public func signOut() async throws(MiniAppError) {
        let session = stored
        let token = access?.token
        let failure = await wipe(to: .signedOut)
        if let session, let token {
            try? await client.logout(refreshToken: session.refreshToken, accessToken: token)
        } else if let session, let pair = try? await client.refresh(session.refreshToken) {
            try? await client.logout(refreshToken: pair.refreshToken, accessToken: pair.accessToken)
        }
        if let failure { throw failure }
    }

    /// Locks a signed-in session: the access token is dropped from memory until ``unlock()``.
    public func lock() {
        guard case .signedIn(let user) = state else { return }
        access = nil
        state = .locked(user)
    }

    /// Locks the session and forgets the refresh token too: it comes back from the vault (behind
    /// a biometric gate) with ``unlockFromVault()``, or with a password sign-in.
    public func lockAndForget() {
        guard case .signedIn(let user) = state else { return }
        access = nil
        stored = nil
        state = .locked(user)
    }

    /// Unlocks a locked session by reading it from the vault again (the gate must be open); a kept
    /// session that cannot be decoded is `store_corrupt`, as in ``restore()``.
    public func unlockFromVault() async throws {
        guard case .locked = state else { return }
        guard let text = try await vault.value(for: Self.secureStoreKey, app: Self.secureStoreApp) else {
            await wipe(to: .signedOut)
            return
        }
        let session = try await decodeStored(text)
        guard session.server == client.baseURL.absoluteString else {
            await wipe(to: .signedOut)
            return
        }
        stored = session
        state = .signedIn(session.user)
    }

    /// Unlocks a locked session with the password: a new sign-in as the locked user.
    public func unlock(password: String) async throws {
        guard case .locked(let user) = state else { return }
        try await signIn(email: user.email, password: password)
    }

    /// The profile kept beside the session (readable while locked).
    func profile() async throws -> StoredProfile? {
        guard let text = try await vault.value(for: Self.profileKey, app: Self.secureStoreApp),
            let profile = try? JSONDecoder().decode(StoredProfile.self, from: Data(text.utf8)),
            profile.server == client.baseURL.absoluteString
        else { return nil }
        return profile
    }

    /// Unlocks a locked session (after the host's own check, e.g. biometrics).
    public func unlock() {
        guard case .locked(let user) = state else { return }
        state = .signedIn(user)
    }

    /// The signed-in user as the server sees it now (`GET /v1/me`).
    public func me() async throws -> UserResponse {
        let user = try await authorized { token in try await self.client.me(accessToken: token) }
        if var session = stored, session.user != user {
            session.user = user
            try await save(session)
            state = .signedIn(user)
        }
        return user
    }

    /// A valid access token: the one in memory unless it expires within ``refreshMargin``, else a
    /// refreshed one — one refresh request for every caller waiting at the time.
    public func accessToken() async throws -> String {
        switch state {
        case .signedIn: break
        case .locked: throw APIClientError(.notSignedIn, "the session is locked")
        case .expired: throw APIClientError(.sessionExpired, "the session ended; sign in again")
        case .signedOut, .signingIn: throw APIClientError(.notSignedIn, "no account is signed in")
        }
        if let access, access.expires.timeIntervalSince(now()) > refreshMargin { return access.token }
        return try await refreshOnce()
    }

    /// Runs `call` with an access token; an `unauthorized` answer (the token was revoked or the
    /// clocks disagree) buys one refreshed token and one more try.
    public func authorized<T: Sendable>(_ call: @Sendable (String) async throws -> T) async throws -> T {
        let token = try await accessToken()
        do {
            return try await call(token)
        } catch let error as APIClientError where error.code == .unauthorized {
            if access?.token == token { access = nil }
            return try await call(try await refreshOnce())
        }
    }

    private func refreshOnce() async throws -> String {
        if let refreshing { return try await refreshing.value }
        guard let session = stored else { throw APIClientError(.notSignedIn, "no account is signed in") }
        let task = Task { () throws -> String in
            do {
                let pair = try await self.client.refresh(session.refreshToken)
                try await self.keep(pair, replacing: session.refreshToken)
                return pair.accessToken
            } catch let error as APIClientError
                where [.refreshTokenReused, .invalidRefreshToken].contains(error.code) || error.status == 401
            {
                await self.wipe(to: .expired)
                throw APIClientError(
                    .sessionExpired, "the session ended on the server (\(error.code)); sign in again", underlying: error)
            }
        }
        refreshing = task
        refreshCount += 1
        defer { refreshing = nil }
        return try await task.value
    }

    private func keep(_ pair: TokenPairResponse, replacing previous: String? = nil) async throws {
        if let previous, stored?.refreshToken != previous {
            // NB: signed out (or in again) while the refresh was under way: the new pair is not ours to keep.
            throw APIClientError(.notSignedIn, "the account signed out during the refresh")
        }
        let session = StoredSession(refreshToken: pair.refreshToken, user: pair.user, server: client.baseURL.absoluteString)
        // NB: stored before it is used: a refresh token the server rotated but we lost would end the session.
        try await save(session)
        if let previous, stored?.refreshToken != previous {
            // NB: signed out (or in again) while the pair was being saved, after the vault was wiped:
            // what this save wrote would bring the session back at the next launch. The vault gets
            // what the account holds now, and the new pair is revoked on the server (best effort, as
            // a sign-out's own revocation is).
            var failure: MiniAppError?
            if let current = stored {
                do { try await save(current) } catch {
                    failure = MiniAppError(
                        .storageFailed,
                        "the account changed during a refresh, and its session could not be written back (\(error))",
                        field: Self.secureStoreKey, underlying: error)
                }
            } else {
                failure = await deleteKept()
            }
            try? await client.logout(refreshToken: pair.refreshToken, accessToken: pair.accessToken)
            if let failure { throw failure }
            throw APIClientError(.notSignedIn, "the account signed out during the refresh")
        }
        stored = session
        access = (pair.accessToken, now().addingTimeInterval(TimeInterval(pair.expiresIn)))
        if case .locked = state { state = .locked(pair.user) } else { state = .signedIn(pair.user) }
    }

    private func save(_ session: StoredSession) async throws {
        let text = String(decoding: try JSONEncoder().encode(session), as: UTF8.self)
        try await vault.set(text, for: Self.secureStoreKey, app: Self.secureStoreApp)
        let profile = String(
            decoding: try JSONEncoder().encode(StoredProfile(user: session.user, server: session.server)), as: UTF8.self)
        try await vault.set(profile, for: Self.profileKey, app: Self.secureStoreApp)
    }

    /// The kept session in `text`; one that cannot be decoded signs out here, has its refresh token
    /// revoked on the server when the token can still be read and the item names this server, and
    /// throws `store_corrupt` naming `session`. The item is left as it is.
    private func decodeStored(_ text: String) async throws(MiniAppError) -> StoredSession {
        do {
            return try JSONDecoder().decode(StoredSession.self, from: Data(text.utf8))
        } catch {
            stored = nil
            access = nil
            state = .signedOut
            let problem = (error as? DecodingError).map { "\($0.fieldPath(under: "session")) \($0.fieldProblem)" } ?? "\(error)"
            let outcome: String
            if let leftover = try? JSONDecoder().decode(LeftoverToken.self, from: Data(text.utf8)),
                leftover.server == client.baseURL.absoluteString
            {
                let revoked = await revoke(leftover.refreshToken)
                outcome = revoked ? "it was signed out on the server" : "it could not be signed out on the server now"
            } else {
                // NB: a token whose server is unknown is not sent anywhere: it may not be this server's.
                outcome = "its refresh token cannot be read for this server, so it was not signed out on the server"
            }
            throw MiniAppError(
                .storeCorrupt, "the session kept on this device cannot be read (\(problem)); \(outcome). Sign in again.",
                field: Self.secureStoreKey, underlying: error)
        }
    }

    /// Revokes the session `refreshToken` belongs to: one refresh buys the access token the logout
    /// needs. True when the server no longer honours the token (revoked now, or refused already).
    private func revoke(_ refreshToken: String) async -> Bool {
        do {
            let pair = try await client.refresh(refreshToken)
            try await client.logout(refreshToken: pair.refreshToken, accessToken: pair.accessToken)
            return true
        } catch let error as APIClientError where error.status == 401 {
            return true
        } catch {
            return false
        }
    }

    /// Forgets the session in memory and in the vault; what the vault refused to delete, if anything.
    @discardableResult
    private func wipe(to newState: AccountState) async -> MiniAppError? {
        stored = nil
        access = nil
        let failure = await deleteKept()
        state = newState
        return failure
    }

    /// Deletes the kept session and profile from the vault; what it refused to delete, if anything.
    private func deleteKept() async -> MiniAppError? {
        var failure: MiniAppError?
        do { _ = try await vault.delete(Self.secureStoreKey, app: Self.secureStoreApp) } catch {
            failure = MiniAppError(
                .storageFailed,
                "signed out here, but the session kept on this device could not be removed (\(error)); "
                    + "the next launch may find it", field: Self.secureStoreKey, underlying: error)
        }
        do { _ = try await vault.delete(Self.profileKey, app: Self.secureStoreApp) } catch {
            failure =
                failure
                ?? MiniAppError(
                    .storageFailed, "signed out, but the profile kept on this device could not be removed (\(error))",
                    field: Self.profileKey, underlying: error)
        }
        return failure
    }
}
