import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI
import PWAKitEncoding
import PWAKitLinks

extension PlatformServer {
    /// The job kind that fetches a post's page and builds its preview.
    public static let ingestPostJob = "ingest_post"

    func addPostRoutes(to table: RouteTable) {
        table.add(.post, "/v1/posts") { request, _ in
            let caller = try await authenticate(request)
            let body = try await RequestReader.json(CreatePostRequest.self, from: request, limit: configuration.maximumJSONBody)
            let canonical = try Self.canonical(body.url)
            let instructions = try Self.instructions(body.instructions)
            let now = environment.now()
            let (post, created) = try await storage.insertPost(
                PostRecord(
                    id: environment.identifier(), userId: caller.userId, url: Self.trimmed(body.url),
                    canonicalURL: canonical.description, instructions: instructions, createdAt: now, updatedAt: now))
            if created {
                // NB: the partial unique index keeps one active job per post, however many requests race here.
                _ = try await storage.enqueueJob(
                    JobRecord(
                        id: environment.identifier(), kind: Self.ingestPostJob, postId: post.id,
                        maxAttempts: configuration.ingestionAttempts, runAt: now, createdAt: now))
            }
            return try JSONResponse.make(
                Self.response(post), status: created ? .created : .ok,
                headers: created ? [.location: "/v1/posts/\(post.id)"] : [:])
        }
        table.add(.get, "/v1/posts") { request, _ in
            let caller = try await authenticate(request)
            let limit = try Self.pageSize(request.uri.queryParameters.get("limit").map { String($0) })
            let cursor = try request.uri.queryParameters.get("cursor").map { try Self.cursor(String($0)) }
            let posts = try await storage.posts(userId: caller.userId, before: cursor, limit: limit + 1)
            let page = Array(posts.prefix(limit))
            let next = posts.count > limit ? page.last.map(Self.cursorText) : nil
            return try JSONResponse.make(PostsPage(posts: page.map(Self.response), nextCursor: next))
        }
        table.add(.post, "/v1/posts/canonicalize") { request, _ in
            let caller = try await authenticate(request)
            let body = try await RequestReader.json(
                CanonicalizeRequest.self, from: request, limit: configuration.maximumJSONBody)
            let canonical = try Self.canonical(body.url).description
            let existing = try await storage.post(userId: caller.userId, canonicalURL: canonical)
            return try JSONResponse.make(CanonicalizeResponse(canonicalUrl: canonical, existingPostId: existing?.id))
        }
        table.add(.get, "/v1/posts/{id}") { request, context in
            let caller = try await authenticate(request)
            return try JSONResponse.make(Self.response(try await ownedPost(context.parameters.require("id"), caller.userId)))
        }
        table.add(.patch, "/v1/posts/{id}") { request, context in
            let caller = try await authenticate(request)
            let id = try context.parameters.require("id")
            let body = try await RequestReader.json(UpdatePostRequest.self, from: request, limit: configuration.maximumJSONBody)
            let instructions = try Self.instructions(body.instructions)
            guard
                let post = try await storage.updatePostInstructions(
                    id: id, userId: caller.userId, instructions: instructions, now: environment.now())
            else { throw APIError.notFound("post") }
            return try JSONResponse.make(Self.response(post))
        }
        table.add(.delete, "/v1/posts/{id}") { request, context in
            let caller = try await authenticate(request)
            guard try await storage.deletePost(id: context.parameters.require("id"), userId: caller.userId) else {
                throw APIError.notFound("post")
            }
            return JSONResponse.noContent()
        }
    }

    /// The caller's post; 404 when it is someone else's or there is none (the two look alike).
    func ownedPost(_ id: String, _ userId: String) async throws -> PostRecord {
        guard let post = try await storage.post(id: id), post.userId == userId else { throw APIError.notFound("post") }
        return post
    }

    static func trimmed(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The canonical form of a shared URL; 400 naming `url` (or its part) otherwise.
    static func canonical(_ url: String) throws -> CanonicalURL {
        do {
            return try CanonicalURL(url)
        } catch {
            // NB: the URL as a whole is the field; the link's own code says which part is at fault.
            throw APIError(.badRequest, .invalidRequest, "url: \(error.message) (\(error.code))", field: "url")
        }
    }

    static func instructions(_ text: String?) throws -> String? {
        guard let text else { return nil }
        if let problem = PostRules.instructionsProblem(text) { throw APIError.invalid("instructions", problem) }
        return text.isEmpty ? nil : text
    }

    static func pageSize(_ text: String?) throws -> Int {
        guard let text else { return PostRules.defaultPageSize }
        guard let size = Int(text), (1...PostRules.maximumPageSize).contains(size) else {
            throw APIError.invalid("limit", "must be a whole number from 1 to \(PostRules.maximumPageSize)")
        }
        return size
    }

    /// `<milliseconds>.<id>`, base64url: where the next page starts.
    static func cursorText(_ post: PostRecord) -> String {
        Base64URL.encode(Array("\(Int64((post.createdAt.timeIntervalSince1970 * 1000).rounded())).\(post.id)".utf8))
    }

    static func cursor(_ text: String) throws -> (createdAt: Date, id: String) {
        let refused = APIError.invalid("cursor", "is not a cursor this server gave (pass nextCursor as it came)")
        guard text.utf8.count <= 200, let bytes = Base64URL.decode(Array(text.utf8)) else { throw refused }
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard let dot = decoded.firstIndex(of: "."), let milliseconds = Int64(decoded[..<dot]) else { throw refused }
        let id = String(decoded[decoded.index(after: dot)...])
        guard !id.isEmpty, id.utf8.count <= 64 else { throw refused }
        return (Date(timeIntervalSince1970: Double(milliseconds) / 1000), id)
    }

    static func response(_ post: PostRecord) -> PostResponse {
        PostResponse(
            id: post.id, url: post.url, canonicalUrl: post.canonicalURL, instructions: post.instructions,
            status: post.status.rawValue, title: post.title, description: post.summary, siteName: post.siteName,
            imageUrl: post.imageHash.map { "/v1/blobs/\($0)" }, lastError: post.lastError, createdAt: post.createdAt,
            updatedAt: post.updatedAt)
    }
}
