import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PWAKitAPI
import PWAKitEncoding
import PWAKitIdentity
import PWAKitModules
import PWAKitTesting
import Synchronization

@testable import PWAKitServer

/// The storage engines these suites run on: SQLite always, PostgreSQL when `PWAKIT_TEST_POSTGRES_URL` is set.
enum Engine: String, CaseIterable, Sendable, CustomStringConvertible {
    case sqlite
    case postgres

    static let postgresURL = ProcessInfo.processInfo.environment["PWAKIT_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    static var available: [Engine] { postgresURL == nil ? [.sqlite] : [.sqlite, .postgres] }
    var description: String { rawValue }

    func open() async throws -> SQLStorage {
        switch self {
        case .sqlite: try await SQLStorage.sqlite(path: nil)
        case .postgres: try await SQLStorage.postgres(url: Self.postgresURL!, maximumConnections: 4)
        }
    }
}

/// A clock both the server and the device read, moved by the test.
final class SharedClock: Sendable {
    private let current: Mutex<Date?>
    /// A clock standing at the instant it was made that only the test moves, or (`real`) the wall clock.
    /// NB: not a fixed date: runs sharing a PostgreSQL database would then share every throttle window.
    /// It starts on a whole second, as stored times are milliseconds: a deadline then compares the same
    /// in memory and in the database.
    init(real: Bool = false) {
        current = Mutex(real ? nil : Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
    }
    var now: Date { current.withLock { $0 } ?? Date() }
    func advance(_ seconds: TimeInterval) { current.withLock { $0? += seconds } }
}

/// A real platform server on a loopback port, with one app backend credential and fast password
/// hashing, and helpers to make accounts and enrolled devices.
struct LiveIdentityServer: Sendable {
    let baseURL: URL
    let server: PlatformServer
    let clock: SharedClock
    let suffix: String
    static let credentialSecret = "backend-secret-0123456789"
    var appId: String { "bank-\(suffix)" }
    var credentialId: String { "cred-\(suffix)" }

    static func run(
        engine: Engine = .sqlite, realClock: Bool = false, configure: @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (LiveIdentityServer) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration()
        configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
        configuration.keyWrappingKey = Data(repeating: 0x5A, count: 32)
        // NB: every account of every suite registers from 127.0.0.1, on a PostgreSQL database they share.
        configuration.registrationLimit = 1_000_000
        configuration.exchangeFailureLimit = 1_000_000
        configure(&configuration)
        let clock = SharedClock(real: realClock)
        let environment =
            realClock
            ? ServerEnvironment.live : ServerEnvironment(now: { clock.now }, randomBytes: ServerEnvironment.live.randomBytes)
        let blobRoot = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-identity-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: blobRoot) }
        let storage = try await engine.open()
        let server = try await PlatformServer.make(
            storage: storage, blobs: try FileBlobStore(root: blobRoot), configuration: configuration, environment: environment)
        let suffix = String(UUID().uuidString.prefix(8)).lowercased()
        _ = try await server.apply(
            ServerSeed(apps: [
                .init(
                    id: "bank-\(suffix)", name: "Bank",
                    credentials: [.init(credentialId: "cred-\(suffix)", secret: credentialSecret)])
            ]))
        let app = Application(
            router: server.router(), server: server.httpServer(serverName: nil),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        do {
            try await app.test(.live) { client in
                guard let port = client.port else { throw TestFailure("the live test server has no port") }
                try await body(
                    LiveIdentityServer(
                        baseURL: URL(string: "http://127.0.0.1:\(port)")!, server: server, clock: clock, suffix: suffix))
            }
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
    }

    /// A client; its timeout is generous because CI runs these beside hundreds of other tests on two cores.
    var api: APIClient { APIClient(baseURL: baseURL, timeout: .seconds(90), clock: ImmediateClock()) }

    /// A new account, signed in.
    func account() async throws -> (user: UserResponse, tokens: TokenPairResponse) {
        let email = "person-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        _ = try await api.register(RegisterRequest(email: email, password: "correct horse battery"))
        let tokens = try await api.login(LoginRequest(email: email, password: "correct horse battery"))
        return (tokens.user, tokens)
    }

    /// A device client over its own in-memory secure store, on the shared clock, with a cheap PIN cost.
    func deviceClient(biometrics: (any BiometricsProvider)? = nil) -> IdentityClient {
        let clock = self.clock
        return IdentityClient(
            api: api, keychain: IdentityKeychain(store: InMemorySecureStore()), biometrics: biometrics,
            cost: PINCost(n: 16, r: 8, p: 1), now: { clock.now })
    }

    /// A new account with this device enrolled under `pin`.
    func enrolled(pin: String = "27491", biometrics: (any BiometricsProvider)? = nil) async throws -> (
        client: IdentityClient, user: UserResponse, tokens: TokenPairResponse
    ) {
        let (user, tokens) = try await account()
        let client = deviceClient(biometrics: biometrics)
        try await client.enrol(name: "Test phone", pin: pin, user: user, accessToken: tokens.accessToken)
        return (client, user, tokens)
    }

    /// A backend's request to confirm a sign-in for `email`.
    func createTransaction(email: String, message: String = "Sign in to Bank on Firefox", data: String? = nil) async throws
        -> HTTPResponseData
    {
        try await api.exchange(
            "POST", "/v1/identity/transactions",
            body: try APIClient.encode(CreateTransactionRequest(email: email, message: message, data: data)),
            credential: .basic(id: credentialId, secret: Self.credentialSecret), idempotent: false)
    }

    /// The transaction as its requester sees it.
    func status(_ id: String) async throws -> TransactionStatusResponse {
        try await api.call(
            "GET", "/v1/identity/transactions/\(id)", credential: .basic(id: credentialId, secret: Self.credentialSecret))
    }
}

extension LiveIdentityServer {
    /// A browser page's side of QR sign-in: an ephemeral P-256 key, its hash, and redemption.
    struct Page: Sendable {
        let key = P256.Signing.PrivateKey()
        var publicKey: String { Base64URL.encode(key.publicKey.x963Representation) }
        var keyHash: String { Base64URL.encode(SHA256.hash(data: key.publicKey.x963Representation)) }

        func redeemBody(_ session: QRSessionResponse) throws -> Data {
            let signature = try key.signature(for: IdentityStatement.qrRedemption(session: session.id, nonce: session.nonce))
            return try APIClient.encode(
                RedeemQRRequest(publicKey: publicKey, signature: Base64URL.encode(signature.rawRepresentation)))
        }
    }

    /// A new sign-in code for `page`.
    func qrSession(for page: Page) async throws -> QRSessionResponse {
        try await api.call(
            "POST", "/v1/identity/qr/sessions", body: try APIClient.encode(CreateQRSessionRequest(keyHash: page.keyHash)),
            idempotent: false)
    }

    /// The page's redemption of `session`, waiting `wait` seconds at most.
    func redeem(_ session: QRSessionResponse, by page: Page, wait: Int = 0) async throws -> HTTPResponseData {
        try await api.exchange(
            "POST", "/v1/identity/qr/sessions/\(session.id)/redeem?wait=\(wait)", body: try page.redeemBody(session),
            idempotent: false)
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension HTTPResponseData {
    /// The error body's code.
    var errorCode: String? { try? JSONDecoder().decode(ErrorBody.self, from: body).error.code }
}

/// A signed request and every copy of it with one byte changed: in the body, the target, the
/// method, or the proof header (each non-space byte flipped two ways).
struct SignedRequest: Sendable {
    static let target = "/v1/identity/device/transactions/abc/answer"
    static let body = Data(#"{"decision":"deny","notMe":false}"#.utf8)

    var header: String
    var method = "POST"
    var target = SignedRequest.target
    var body = SignedRequest.body
    var label = "unchanged"

    /// Every single-byte change of this request.
    var changes: [SignedRequest] {
        var out: [SignedRequest] = []
        for index in body.indices {
            var copy = self
            copy.body[index] ^= 0x01
            copy.label = "body byte \(index)"
            out.append(copy)
        }
        let targetBytes = Array(target.utf8)
        for index in targetBytes.indices {
            var bytes = targetBytes
            bytes[index] ^= 0x01
            var copy = self
            copy.target = String(decoding: bytes, as: UTF8.self)
            copy.label = "target byte \(index)"
            out.append(copy)
        }
        var put = self
        put.method = "PUT"
        put.label = "method"
        out.append(put)
        let headerBytes = Array(header.utf8)
        for index in headerBytes.indices where headerBytes[index] != UInt8(ascii: " ") {
            for flip: UInt8 in [0x01, 0x02] {
                var bytes = headerBytes
                bytes[index] ^= flip
                var copy = self
                copy.header = String(decoding: bytes, as: UTF8.self)
                copy.label = "header byte \(index)"
                out.append(copy)
            }
        }
        return out
    }

    /// Whether `verifier` refuses this request.
    func isRefused(by verifier: DeviceProofVerifier) async -> Bool {
        (try? await verifier.verify(header: header, method: method, target: target, body: body)) == nil
    }
}
