import Foundation
import PWAKitBundles

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The HTTP calls `pwakit publish` makes to the platform server.
struct PublishClient {
    let baseURL: URL
    var accessToken: String?
    private let session = URLSession(configuration: .ephemeral)

    init(baseURL: URL) { self.baseURL = baseURL }

    /// A server answer that was not a success, with the server's stable error code.
    struct ServerError: Error, CustomStringConvertible {
        let status: Int
        let code: String
        let message: String
        let field: String?
        var description: String { "server answered \(status) \(code)\(field.map { " (\($0))" } ?? ""): \(message)" }
    }

    private struct ErrorBody: Decodable {
        struct Detail: Decodable {
            var code: String
            var message: String
            var field: String?
        }
        var error: Detail
    }

    func send(_ method: String, _ path: String, body: Data? = nil, contentType: String = "application/json") async throws -> Data
    {
        guard let url = URL(string: path, relativeTo: baseURL) else {
            throw ServerError(status: 0, code: "bad_url", message: path, field: nil)
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        if body != nil { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let accessToken { request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization") }
        let (data, response) = try await session.data(for: request)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard (200..<300).contains(status) else {
            if let decoded = try? JSONDecoder().decode(ErrorBody.self, from: data) {
                throw ServerError(
                    status: status, code: decoded.error.code, message: decoded.error.message, field: decoded.error.field)
            }
            throw ServerError(
                status: status, code: "http_\(status)", message: String(decoding: data.prefix(200), as: UTF8.self), field: nil)
        }
        return data
    }

    mutating func login(email: String, password: String) async throws {
        struct Tokens: Decodable { var accessToken: String }
        let body = try JSONEncoder().encode(["email": email, "password": password])
        accessToken = try JSONDecoder().decode(Tokens.self, from: try await send("POST", "/v1/auth/login", body: body))
            .accessToken
    }

    func missingBlobs(_ hashes: [String]) async throws -> [String] {
        struct Missing: Decodable { var missing: [String] }
        let body = try JSONEncoder().encode(["sha256": hashes])
        return try JSONDecoder().decode(Missing.self, from: try await send("POST", "/v1/blobs/missing", body: body)).missing
    }

    func uploadBlob(hash: String, data: Data) async throws {
        _ = try await send("PUT", "/v1/blobs/\(hash)", body: data, contentType: "application/octet-stream")
    }

    func publish(appId: String, release: SignedRelease, rolloutPercent: Int) async throws -> Data {
        struct Request: Encodable {
            var manifest: String
            var keyId: String
            var signature: String
            var rolloutPercent: Int
        }
        let body = try JSONEncoder().encode(
            Request(
                manifest: release.manifest, keyId: release.keyId, signature: release.signature, rolloutPercent: rolloutPercent))
        return try await send("POST", "/v1/apps/\(appId)/releases", body: body)
    }
}
