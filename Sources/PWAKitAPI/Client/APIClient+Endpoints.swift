public import Foundation

extension APIClient {
    /// `POST /v1/auth/register`.
    public func register(_ request: RegisterRequest) async throws -> RegistrationResponse {
        try await call("POST", "/v1/auth/register", body: Self.encode(request))
    }

    /// `POST /v1/auth/login`.
    public func login(_ request: LoginRequest) async throws -> TokenPairResponse {
        try await call("POST", "/v1/auth/login", body: Self.encode(request))
    }

    /// `POST /v1/auth/refresh`; never retried (a refresh token works once).
    public func refresh(_ refreshToken: String) async throws -> TokenPairResponse {
        try await call(
            "POST", "/v1/auth/refresh", body: Self.encode(RefreshRequest(refreshToken: refreshToken)), idempotent: false)
    }

    /// `POST /v1/auth/logout`: revokes the session `refreshToken` belongs to.
    public func logout(refreshToken: String, accessToken: String) async throws {
        try await callExpectingNoContent(
            "POST", "/v1/auth/logout", body: Self.encode(RefreshRequest(refreshToken: refreshToken)),
            credential: .bearer(accessToken), idempotent: true)
    }

    /// `GET /v1/me`.
    public func me(accessToken: String) async throws -> UserResponse {
        try await call("GET", "/v1/me", credential: .bearer(accessToken))
    }

    /// The answer to a conditional request.
    public enum Conditional<Value: Sendable>: Sendable {
        /// The server's copy differs from the one named: here it is, with its validator.
        case modified(Value, etag: String?)
        /// The copy named by the validator is current.
        case notModified
    }

    /// `GET /v1/apps`, conditional on `etag` (`If-None-Match`).
    public func apps(accessToken: String, ifNoneMatch etag: String? = nil) async throws -> Conditional<AppListResponse> {
        let response = try await exchange(
            "GET", "/v1/apps", credential: .bearer(accessToken), headers: etag.map { ["If-None-Match": $0] } ?? [:])
        if response.status == 304 { return .notModified }
        try Self.requireSuccess(response)
        return .modified(try Self.decode(AppListResponse.self, from: response.body), etag: response.header("ETag"))
    }

    /// `GET /v1/apps/{appId}`.
    public func app(_ appId: String, accessToken: String) async throws -> AppResponse {
        try await call("GET", "/v1/apps/\(try Self.segment(appId))", credential: .bearer(accessToken))
    }

    /// `GET /v1/apps/{appId}/releases/latest?channel=&current=`.
    public func latestRelease(appId: String, channel: String, current: String?, accessToken: String) async throws
        -> LatestReleaseResponse
    {
        var components = URLComponents()
        components.path = "/v1/apps/\(try Self.segment(appId))/releases/latest"
        components.queryItems =
            [URLQueryItem(name: "channel", value: channel)] + (current.map { [URLQueryItem(name: "current", value: $0)] } ?? [])
        return try await call("GET", components.string ?? components.path, credential: .bearer(accessToken))
    }

    /// `POST /v1/launch/codes`: a single-use code and a launch token for (user, app, bundle).
    public func launchCode(_ request: LaunchCodeRequest, accessToken: String) async throws -> LaunchCodeResponse {
        try await call("POST", "/v1/launch/codes", body: Self.encode(request), credential: .bearer(accessToken))
    }

    /// `POST /v1/launch/exchange`, as a mini-app backend with its own credential; never retried.
    public func exchangeLaunchCode(_ code: String, credentialId: String, secret: String) async throws -> LaunchExchangeResponse {
        try await call(
            "POST", "/v1/launch/exchange", body: Self.encode(LaunchExchangeRequest(code: code)),
            credential: .basic(id: credentialId, secret: secret), idempotent: false)
    }

    /// `POST /v1/apps`.
    public func createApp(_ request: CreateAppRequest, accessToken: String) async throws -> AppResponse {
        try await call("POST", "/v1/apps", body: Self.encode(request), credential: .bearer(accessToken))
    }

    /// `POST /v1/apps/{appId}/keys`.
    public func addPublisherKey(appId: String, publicKey: String, accessToken: String) async throws -> PublisherKeyResponse {
        try await call(
            "POST", "/v1/apps/\(try Self.segment(appId))/keys", body: Self.encode(AddPublisherKeyRequest(publicKey: publicKey)),
            credential: .bearer(accessToken))
    }

    /// `POST /v1/apps/{appId}/credentials`.
    public func createCredential(appId: String, accessToken: String) async throws -> CredentialResponse {
        try await call("POST", "/v1/apps/\(try Self.segment(appId))/credentials", credential: .bearer(accessToken))
    }

    /// `GET /v1/apps/{appId}/keys`: the app's publisher keys, revoked ones included.
    public func publisherKeys(appId: String, accessToken: String) async throws -> [PublisherKeyResponse] {
        let list: PublisherKeyListResponse = try await call(
            "GET", "/v1/apps/\(try Self.segment(appId))/keys", credential: .bearer(accessToken))
        return list.keys
    }

    /// `DELETE /v1/apps/{appId}/keys/{keyId}`: the key signs no new release; with `withdrawReleases`, the
    /// releases it signed are withdrawn too.
    public func revokePublisherKey(appId: String, keyId: String, withdrawReleases: Bool, accessToken: String) async throws
        -> RevokePublisherKeyResponse
    {
        try await call(
            "DELETE",
            "/v1/apps/\(try Self.segment(appId))/keys/\(try Self.segment(keyId))?withdrawReleases=\(withdrawReleases)",
            credential: .bearer(accessToken), idempotent: true)
    }

    /// `GET /v1/apps/{appId}/credentials`: the app's backend credentials, without secrets.
    public func credentials(appId: String, accessToken: String) async throws -> [CredentialInfoResponse] {
        let list: CredentialListResponse = try await call(
            "GET", "/v1/apps/\(try Self.segment(appId))/credentials", credential: .bearer(accessToken))
        return list.credentials
    }

    /// `DELETE /v1/apps/{appId}/credentials/{credentialId}`.
    public func revokeCredential(appId: String, credentialId: String, accessToken: String) async throws
        -> CredentialInfoResponse
    {
        try await call(
            "DELETE", "/v1/apps/\(try Self.segment(appId))/credentials/\(try Self.segment(credentialId))",
            credential: .bearer(accessToken), idempotent: true)
    }

    /// `GET /v1/apps/{appId}/publishers`.
    public func publishers(appId: String, accessToken: String) async throws -> [PublisherResponse] {
        let list: PublisherListResponse = try await call(
            "GET", "/v1/apps/\(try Self.segment(appId))/publishers", credential: .bearer(accessToken))
        return list.publishers
    }

    /// `POST /v1/apps/{appId}/publishers`: lets the account with `email` publish the app.
    public func grantPublisher(appId: String, email: String, accessToken: String) async throws -> PublisherResponse {
        try await call(
            "POST", "/v1/apps/\(try Self.segment(appId))/publishers", body: Self.encode(GrantPublisherRequest(email: email)),
            credential: .bearer(accessToken), idempotent: true)
    }

    /// `DELETE /v1/apps/{appId}/publishers/{userId}`.
    public func revokePublisher(appId: String, userId: String, accessToken: String) async throws {
        try await callExpectingNoContent(
            "DELETE", "/v1/apps/\(try Self.segment(appId))/publishers/\(try Self.segment(userId))",
            credential: .bearer(accessToken), idempotent: true)
    }

    /// `POST /v1/blobs/missing`.
    public func missingBlobs(_ hashes: [String], accessToken: String) async throws -> [String] {
        let answer: MissingBlobsResponse = try await call(
            "POST", "/v1/blobs/missing", body: Self.encode(MissingBlobsRequest(sha256: hashes)),
            credential: .bearer(accessToken), idempotent: true)
        return answer.missing
    }

    /// `PUT /v1/blobs/{sha256}`.
    public func uploadBlob(_ data: Data, sha256: String, accessToken: String) async throws -> BlobPutResponse {
        let response = try await exchange(
            "PUT", "/v1/blobs/\(try Self.segment(sha256))", body: data, contentType: "application/octet-stream",
            credential: .bearer(accessToken))
        try Self.requireSuccess(response)
        return try Self.decode(BlobPutResponse.self, from: response.body)
    }

    /// `POST /v1/apps/{appId}/releases`.
    public func publish(appId: String, _ request: PublishReleaseRequest, accessToken: String) async throws -> ReleaseResponse {
        try await call(
            "POST", "/v1/apps/\(try Self.segment(appId))/releases", body: Self.encode(request), credential: .bearer(accessToken))
    }

    /// `GET /v1/blobs/{sha256}` for the bytes from `offset` to `end` (exclusive), or all of them;
    /// `If-Range` on the blob's ETag, so a changed blob comes back whole (200) rather than spliced.
    public func blob(_ sha256: String, range: Range<Int>? = nil) async throws -> HTTPResponseData {
        var headers: [String: String] = ["Accept": "application/octet-stream"]
        if let range {
            headers["Range"] = "bytes=\(range.lowerBound)-\(range.upperBound - 1)"
            headers["If-Range"] = "\"\(sha256)\""
        }
        let response = try await exchange("GET", "/v1/blobs/\(try Self.segment(sha256))", headers: headers)
        try Self.requireSuccess(response)
        return response
    }

    /// `POST /v1/events` (safe to send again: the server stores each event once by id).
    public func sendEvents(_ batch: EventBatchRequest, accessToken: String) async throws -> EventBatchResponse {
        try await call("POST", "/v1/events", body: Self.encode(batch), credential: .bearer(accessToken), idempotent: true)
    }

    /// `POST /v1/posts`: the post, and whether it is new (201) rather than the caller's existing one (200).
    /// Safe to send again: the server keeps one post per canonical URL and person.
    public func createPost(_ request: CreatePostRequest, accessToken: String) async throws -> (PostResponse, created: Bool) {
        let response = try await exchange(
            "POST", "/v1/posts", body: Self.encode(request), credential: .bearer(accessToken), idempotent: true)
        try Self.requireSuccess(response)
        return (try Self.decode(PostResponse.self, from: response.body), response.status == 201)
    }

    /// `GET /v1/posts[?limit=&cursor=]`: a page of the caller's posts, newest first.
    public func posts(limit: Int? = nil, cursor: String? = nil, accessToken: String) async throws -> PostsPage {
        var query: [String] = []
        if let limit { query.append("limit=\(limit)") }
        if let cursor {
            guard cursor.utf8.count <= 512, let encoded = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics)
            else { throw APIClientError(.init("invalid_argument"), "the cursor is not one a page gave") }
            query.append("cursor=\(encoded)")
        }
        return try await call(
            "GET", "/v1/posts" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")), credential: .bearer(accessToken))
    }

    /// `GET /v1/posts/{id}`: one of the caller's posts, with its ingestion status.
    public func post(id: String, accessToken: String) async throws -> PostResponse {
        try await call("GET", "/v1/posts/\(try Self.segment(id))", credential: .bearer(accessToken))
    }

    /// `GET /v1/flags[?appId=]`: the feature flags' remote values for the signed-in user.
    public func flags(appId: String? = nil, accessToken: String) async throws -> FlagsResponse {
        let query = try appId.map { "?appId=\(try Self.segment($0))" } ?? ""
        return try await call("GET", "/v1/flags" + query, credential: .bearer(accessToken))
    }

    /// `GET /v1/admin/flags`.
    public func adminFlags(accessToken: String) async throws -> [FlagResponse] {
        try await call("GET", "/v1/admin/flags", credential: .bearer(accessToken))
    }

    /// `PUT /v1/admin/flags/{key}`.
    public func setFlag(_ key: String, _ request: SetFlagRequest, accessToken: String) async throws -> FlagResponse {
        try await call(
            "PUT", "/v1/admin/flags/\(try Self.segment(key))", body: Self.encode(request), credential: .bearer(accessToken))
    }

    /// `DELETE /v1/admin/flags/{key}[?appId=]`.
    public func deleteFlag(_ key: String, appId: String? = nil, accessToken: String) async throws {
        let query = try appId.map { "?appId=\(try Self.segment($0))" } ?? ""
        try await callExpectingNoContent(
            "DELETE", "/v1/admin/flags/\(try Self.segment(key))" + query, credential: .bearer(accessToken), idempotent: true)
    }

    /// A path segment the client builds from a caller's value: plain characters only, so no value
    /// can add a segment or a query.
    static func segment(_ value: String) throws -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._")
        guard !value.isEmpty, value.utf8.count <= 128, value.allSatisfy({ allowed.contains($0) }), value != ".", value != ".."
        else {
            throw APIClientError(.init("invalid_argument"), "\"\(value.prefix(40))\" is not an id")
        }
        return value
    }
}
