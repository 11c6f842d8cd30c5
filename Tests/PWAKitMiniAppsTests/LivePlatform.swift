import Crypto
import Foundation
import Hummingbird
import HummingbirdTesting
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps
import PWAKitModules
import PWAKitTesting
import Synchronization

@testable import PWAKitServer

/// A real platform server on a loopback port (SQLite in memory, blobs in a temporary directory,
/// fast password hashing) with a seeded administrator, reached through the real client.
struct LivePlatform: Sendable {
    let baseURL: URL
    let admin: String
    let transport: CountingTransport
    let blobRoot: URL
    static let adminPassword = "admin-password-1"

    /// Runs `body` against a fresh server on a live socket.
    static func run(
        configure: @Sendable (inout ServerConfiguration) -> Void = { _ in }, _ body: @Sendable (LivePlatform) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration()
        configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
        configure(&configuration)
        let blobRoot = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-miniapps-blobs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: blobRoot) }
        let server = try await PlatformServer.make(
            storage: try await SQLStorage.sqlite(path: nil), blobs: try FileBlobStore(root: blobRoot),
            configuration: configuration)
        let adminEmail = "admin@example.com"
        _ = try await server.apply(ServerSeed(users: [.init(email: adminEmail, password: adminPassword, role: "admin")]))
        let app = Application(
            router: server.router(), server: server.httpServer(serverName: nil),
            configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        do {
            try await app.test(.live) { client in
                guard let port = client.port else { throw TestFailure("the live test server has no port") }
                let baseURL = URL(string: "http://127.0.0.1:\(port)")!
                let transport = CountingTransport(URLSessionTransport())
                let admin = try await APIClient(baseURL: baseURL, transport: transport)
                    .login(LoginRequest(email: adminEmail, password: adminPassword)).accessToken
                try await body(LivePlatform(baseURL: baseURL, admin: admin, transport: transport, blobRoot: blobRoot))
            }
        } catch {
            try? await server.storage.close()
            throw error
        }
        try await server.storage.close()
    }

    /// A client over the counting transport.
    var client: APIClient { APIClient(baseURL: baseURL, transport: transport, clock: ImmediateClock()) }

    /// Creates an app whose releases `key` signs.
    func createApp(_ appId: String, key: SigningKey, channels: [String] = ["stable", "beta"], permissions: [String] = [])
        async throws
    {
        _ = try await client.createApp(
            CreateAppRequest(id: appId, name: "App \(appId)", permissions: permissions, channels: channels), accessToken: admin)
        _ = try await client.addPublisherKey(appId: appId, publicKey: key.verifyingKey.base64, accessToken: admin)
    }

    /// Uploads the files the server lacks and publishes a signed release of them.
    @discardableResult
    func publish(
        _ appId: String, version: String, files: [String: [UInt8]], key: SigningKey, channel: String = "stable"
    ) async throws -> PublishedRelease {
        let entries = files.map { path, bytes in
            ManifestFile(path: path, sha256: SHA256.hex(of: bytes), size: bytes.count, contentType: ContentTypes.forPath(path))
        }
        let manifest = ReleaseManifest(appId: appId, version: version, channel: channel, entry: "index.html", files: entries)
        let signed = try SignedRelease.sign(manifest, with: key)
        let missing = try await client.missingBlobs(entries.map(\.sha256), accessToken: admin)
        for (_, bytes) in files where missing.contains(SHA256.hex(of: bytes)) {
            _ = try await client.uploadBlob(Data(bytes), sha256: SHA256.hex(of: bytes), accessToken: admin)
        }
        let release = try await client.publish(
            appId: appId, PublishReleaseRequest(manifest: signed.manifest, keyId: signed.keyId, signature: signed.signature),
            accessToken: admin)
        return PublishedRelease(signed: signed, bundleHash: release.bundleHash, files: files)
    }

    /// Registers an account and returns a signed-in session over an in-memory secure store.
    func signedInAccount(email: String = "user-\(UUID().uuidString.prefix(8).lowercased())@example.com")
        async throws -> (AccountSession, any SecureStore)
    {
        let vault: any SecureStore = InMemorySecureStore()
        let account = AccountSession(client: client, vault: vault)
        try await account.register(email: email, password: "correct horse battery")
        return (account, vault)
    }
}

/// A release as published in a test.
struct PublishedRelease: Sendable {
    let signed: SignedRelease
    let bundleHash: String
    let files: [String: [UInt8]]
}

/// Carries requests over another transport and counts them, and the body bytes of blob answers.
final class CountingTransport: HTTPTransport {
    private let inner: any HTTPTransport
    private let counts = Mutex<(requests: [String], blobBytes: Int)>(([], 0))
    /// Rewrites an answer before the client sees it (a hostile server or network), per request.
    let rewrite = Mutex<(@Sendable (HTTPRequestData, HTTPResponseData) -> HTTPResponseData)?>(nil)

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        var response = try await inner.send(request)
        if let rewrite = rewrite.withLock({ $0 }) { response = rewrite(request, response) }
        counts.withLock {
            $0.requests.append("\(request.method) \(request.url.path)")
            if request.url.path.hasPrefix("/v1/blobs/"), request.method == "GET" { $0.blobBytes += response.body.count }
        }
        return response
    }

    /// The requests so far, as `METHOD path`.
    var requests: [String] { counts.withLock { $0.requests } }
    /// Body bytes of blob answers so far.
    var blobBytes: Int { counts.withLock { $0.blobBytes } }
    /// Forgets the counts.
    func reset() { counts.withLock { $0 = ([], 0) } }
}

/// A token source for store-level tests.
struct FixedToken: AccessTokenSource {
    let token: String
    func accessToken() async throws -> String { token }
}

/// A temporary directory removed at the end of the test.
func temporaryDirectory(_ name: String = "store") -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-\(name)-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Bytes of a text.
func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
