import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import PWAKitBundles
import PWAKitTesting

@testable import PWAKitServer

/// How a test reaches the server: in-process through the router, or over a real socket.
enum Transport: String, CaseIterable, Sendable, CustomStringConvertible {
    case router
    case live
    var setup: TestingSetup { self == .router ? .router : .live }
    var description: String { rawValue }
}

/// A server with a test clock, fast password hashing, a temporary blob store and a seeded admin.
struct Harness: Sendable {
    let server: PlatformServer
    let clock: ManualClock
    let blobRoot: URL
    let adminEmail: String
    static let adminPassword = "admin-password-1"

    static func make(engine: StorageEngine, configure: (inout ServerConfiguration) -> Void = { _ in }) async throws
        -> Harness
    {
        // NB: each harness starts at its own hour in 2100–2111, so login failures other runs left in a shared
        // PostgreSQL database fall outside its throttle window, its own never reach a real-time server's, and a
        // real-time server's purge (which deletes rows older than its own now) never deletes them.
        let clock = ManualClock(origin: Date(timeIntervalSince1970: 4_102_444_800 + Double(Int.random(in: 0..<100_000)) * 3600))
        var configuration = ServerConfiguration()
        configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
        configuration.keyWrappingKey = StorageEngine.testWrappingKey
        // NB: suites register many accounts from one address; the registration limit has tests of its own.
        configuration.registrationLimit = 10_000
        configure(&configuration)
        let blobRoot = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-blobs-\(UUID().uuidString)")
        let environment = ServerEnvironment(now: { clock.date }, randomBytes: ServerEnvironment.live.randomBytes)
        let server = try await PlatformServer.make(
            storage: try await engine.open(), blobs: try FileBlobStore(root: blobRoot), configuration: configuration,
            environment: environment)
        let adminEmail = "admin-\(uniqueSuffix())@example.com"
        try await server.apply(ServerSeed(users: [.init(email: adminEmail, password: Self.adminPassword, role: "admin")]))
        return Harness(server: server, clock: clock, blobRoot: blobRoot, adminEmail: adminEmail)
    }

    /// Serves the router through `transport`; on a live socket blobs come from `blobCache` (a fresh one by
    /// default) on the clock `now` (seconds since 1970).
    func test(
        _ transport: Transport, blobCache: BlobCache? = nil, serverName: String? = nil,
        now: @escaping @Sendable () -> Int = { Int(Date().timeIntervalSince1970) },
        _ body: @escaping @Sendable (any TestClientProtocol) async throws -> Void
    ) async throws {
        let httpServer =
            if let blobCache { server.httpServer(serverName: serverName, cache: blobCache, now: now) } else {
                server.httpServer(serverName: serverName)
            }
        let app = Application(
            router: server.router(), server: httpServer,
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: serverName))
        defer { try? FileManager.default.removeItem(at: blobRoot) }
        do {
            try await app.test(transport.setup) { client in try await body(client) }
        } catch {
            try? await server.storage.close()
            throw error
        }
        try await server.storage.close()
    }
}

/// A decoded JSON response body.
enum JSONBody: Sendable {
    case object([String: JSONBody])
    case array([JSONBody])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(_ any: Any) {
        switch any {
        case let object as [String: Any]: self = .object(object.mapValues(JSONBody.init))
        case let array as [Any]: self = .array(array.map(JSONBody.init))
        case let string as String: self = .string(string)
        case let number as NSNumber:
            self = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        default: self = .null
        }
    }

    subscript(key: String) -> JSONBody? { if case .object(let object) = self { object[key] } else { nil } }
    subscript(index: Int) -> JSONBody? {
        if case .array(let array) = self, array.indices.contains(index) { array[index] } else { nil }
    }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var int: Int? { if case .number(let value) = self { Int(value) } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    var count: Int { if case .array(let array) = self { array.count } else { 0 } }
    var errorCode: String? { self["error"]?["code"]?.string }
    var errorField: String? { self["error"]?["field"]?.string }
}

extension TestResponse {
    var json: JSONBody {
        JSONBody(
            (try? JSONSerialization.jsonObject(with: Data(body.readableBytesView), options: [.fragmentsAllowed])) ?? NSNull())
    }
    var bytes: [UInt8] { Array(body.readableBytesView) }
    var text: String { String(buffer: body) }
}

extension TestClientProtocol {
    /// Sends a request with an optional raw body and bearer token.
    func send(
        _ method: HTTPRequest.Method, _ path: String, body: String? = nil, token: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        try await sendBytes(method, path, body: body.map { Array($0.utf8) }, token: token, headers: headers)
    }

    func sendBytes(
        _ method: HTTPRequest.Method, _ path: String, body: [UInt8]?, token: String? = nil, headers: HTTPFields = [:]
    ) async throws -> TestResponse {
        var fields = headers
        if let token { fields[.authorization] = "Bearer \(token)" }
        if body != nil, fields[.contentType] == nil { fields[.contentType] = "application/json" }
        return try await executeRequest(uri: path, method: method, headers: fields, body: body.map { ByteBuffer(bytes: $0) })
    }

    /// Encodes a dictionary as the JSON body.
    func send(_ method: HTTPRequest.Method, _ path: String, json: [String: Any], token: String? = nil, headers: HTTPFields = [:])
        async throws -> TestResponse
    {
        let data = try JSONSerialization.data(withJSONObject: json)
        return try await sendBytes(method, path, body: Array(data), token: token, headers: headers)
    }

    /// Registers a fresh user and signs in; returns (access token, refresh token, user id).
    func register(email: String = "user-\(uniqueSuffix())@example.com", password: String = "correct horse") async throws -> (
        access: String, refresh: String, id: String
    ) {
        let registered = try await send(.post, "/v1/auth/register", json: ["email": email, "password": password])
        guard registered.status == .accepted else {
            throw HarnessError("register failed: \(registered.status) \(registered.text)")
        }
        let response = try await send(.post, "/v1/auth/login", json: ["email": email, "password": password])
        guard let access = response.json["accessToken"]?.string, let refresh = response.json["refreshToken"]?.string,
            let id = response.json["user"]?["id"]?.string
        else { throw HarnessError("sign-in after registering failed: \(response.status) \(response.text)") }
        return (access, refresh, id)
    }

    func login(email: String, password: String) async throws -> String {
        let response = try await send(.post, "/v1/auth/login", json: ["email": email, "password": password])
        guard let token = response.json["accessToken"]?.string else {
            throw HarnessError("login failed: \(response.status) \(response.text)")
        }
        return token
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Changes one character in the middle of a JWT's signature (the last character carries padding bits only).
func flipSignatureCharacter(_ token: String) -> String {
    var characters = Array(token)
    let index = characters.count - 20
    characters[index] = characters[index] == "A" ? "B" : "A"
    return String(characters)
}
