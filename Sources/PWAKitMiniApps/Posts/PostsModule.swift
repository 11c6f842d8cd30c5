import Foundation
import PWAKitAPI
public import PWAKitCore
import PWAKitLinks
import PWAKitModules
public import PWAKitShare

/// `posts`: the person's shared links and their ingestion status, for the launcher's own page
/// (`app://launcher`) only, whatever the grants say: a mini-app cannot read what the person shares.
///
/// - `share` keeps the link in the outbox first (the same outbox `pwakit share` writes), then sends
///   every queued share; offline, the share waits and is sent by the next `share` or `list`.
/// - `list` sends what waits, then answers a page of posts, newest first, each with its `status`
///   (`pending` while the server fetches the page, then `ready` with its preview, or `failed`).
/// - `get` answers one post, so a page can follow a pending one until it is ready.
/// - `pending` answers the shares still in the outbox and those the server refused.
public struct PostsModule: ActionModule {
    /// `posts`.
    public static let moduleName = "posts"
    /// Registered by the launcher only; not a configuration feature.
    public static let featureFlag: String? = nil
    /// One line for the reference.
    public static let summary =
        "The person's shared links and their ingestion status (pending, ready, failed); sharing a link, kept in the outbox while offline."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("posts.not_signed_in", "No account is signed in (or the session ended)."),
        ModuleErrorCode("posts.offline", "The platform server cannot be reached; shares wait in the outbox."),
        ModuleErrorCode("posts.not_found", "The signed-in person has no post with this id."),
        ModuleErrorCode("posts.failed", "The outbox or the server failed; the message says why."),
    ]

    /// The actions.
    public static let actions = ModuleActions<PostsModule>()
        .action(
            "share", payload: PostSharePayload.self, result: PostShareResult.self,
            summary: "Keeps a link in the outbox, then sends every queued share; `state` says whether it was posted or kept.",
            example: PostSharePayload(url: "https://example.com/article", note: "worth a read")
        ) { module, payload, context in
            try module.check(context)
            return try await module.share(payload)
        }
        .action(
            "list", payload: PostsListPayload.self, result: SharedPostsPage.self,
            summary: "Sends what waits in the outbox, then a page of posts, newest first, each with its status."
        ) { module, payload, context in
            try module.check(context)
            _ = try? await module.sendPending()
            let page = try await module.call(payloadFields: ["limit", "cursor"]) { client, token in
                try await client.posts(limit: payload.limit, cursor: payload.cursor, accessToken: token)
            }
            return SharedPostsPage(posts: page.posts.map(SharedPost.init), nextCursor: page.nextCursor)
        }
        .action(
            "get", payload: PostIdPayload.self, result: SharedPost.self, summary: "One post and its status.",
            example: PostIdPayload(id: "EXAMPLE-POST-ID")
        ) { module, payload, context in
            try module.check(context)
            return SharedPost(
                try await module.call(payloadFields: ["id"]) { client, token in
                    try await client.post(id: payload.id, accessToken: token)
                })
        }
        .action(
            "pending", result: PendingShares.self, summary: "The shares waiting in the outbox and those the server refused."
        ) { module, context in
            try module.check(context)
            do {
                return PendingShares(
                    waiting: try module.outbox.pending().map(WaitingShare.init),
                    rejected: try module.outbox.rejected().map { RejectedShare(id: $0.id, reason: $0.reason) })
            } catch {
                throw BridgeError(.module("posts", "failed"), "the outbox cannot be read: \(error)")
            }
        }

    let account: AccountSession
    /// The outbox shares wait in.
    public let outbox: ShareOutbox

    /// A module for the person signed in through `account`, queueing in `outbox`.
    public init(account: AccountSession, outbox: ShareOutbox) {
        self.account = account
        self.outbox = outbox
    }

    func check(_ context: ModuleContext) throws {
        guard context.caller.origin == LauncherModule.origin else {
            throw BridgeError(.permissionDenied, "posts answers only \(LauncherModule.origin), not \(context.caller.origin)")
        }
    }

    func share(_ payload: PostSharePayload) async throws -> PostShareResult {
        let share: PendingShare
        do {
            share = try outbox.enqueue(url: payload.url, note: payload.note)
        } catch let error as LinkError {
            throw BridgeError.field(.invalidPayload, path: "payload.url", "\(error.message) (\(error.code.rawValue))")
        } catch let error as ShareError where ["url", "note"].contains(error.field) {
            throw BridgeError.field(.invalidPayload, path: "payload.\(error.field)", error.message)
        } catch {
            throw BridgeError(.module("posts", "failed"), "the share cannot be kept: \(error)")
        }
        let outcomes: [PWAKitShare.ShareOutcome]
        do {
            outcomes = try await sendPending()
        } catch {
            return PostShareResult(state: "kept", shareId: share.id, post: nil, reason: "\(error)")
        }
        for outcome in outcomes {
            switch outcome {
            case .posted(let sent, let post, let created) where sent.id == share.id:
                return PostShareResult(state: "posted", shareId: share.id, post: SharedPost(post), created: created)
            case .rejected(let sent, let reason) where sent.id == share.id:
                throw BridgeError(.module("posts", "failed"), "the server refused the share: \(reason)")
            case .kept(_, let reason):
                return PostShareResult(state: "kept", shareId: share.id, post: nil, reason: reason)
            default: continue
            }
        }
        return PostShareResult(state: "kept", shareId: share.id, post: nil, reason: "not sent yet")
    }

    /// Sends every queued share with a fresh access token; stops at the first the server cannot take now.
    func sendPending() async throws -> [PWAKitShare.ShareOutcome] {
        guard await account.state.user != nil else {
            throw BridgeError(.module("posts", "not_signed_in"), "no account is signed in")
        }
        let account = self.account
        return try await ShareSender(outbox: outbox) { request in
            try await account.authorized { token in try await account.client.createPost(request, accessToken: token) }
        }.sendPending()
    }

    /// Runs `body` with an access token and words its failure. Only the server's refusal (400) of a
    /// value the page sent, one of `payloadFields`, is `invalid_payload` naming `payload.<field>`;
    /// every other failure (an answer that does not decode, a server or store fault) is
    /// `posts.failed` and names no payload path, whatever field the error carries.
    func call<T: Sendable>(payloadFields: Set<String>, _ body: @Sendable (APIClient, String) async throws -> T)
        async throws -> T
    {
        let account = self.account
        do {
            return try await account.authorized { token in try await body(account.client, token) }
        } catch let error as APIClientError {
            if let answer = error.accountBridgeError(module: "posts") { throw answer }
            if error.status == 404 { throw BridgeError(.module("posts", "not_found"), error.message) }
            if error.status == 400, let field = error.field, payloadFields.contains(field) {
                throw BridgeError.field(.invalidPayload, path: "payload.\(field)", error.message)
            }
            throw BridgeError(.module("posts", "failed"), error.description)
        }
    }
}

/// A post as pages see it: the API's post with its dates in ISO 8601.
public struct SharedPost: Codable, Sendable, Hashable {
    /// The post's id.
    public var id: String
    /// The URL as shared.
    public var url: String
    /// Its canonical form.
    public var canonicalUrl: String
    /// The note, if any.
    public var instructions: String?
    /// `pending`, `ready` or `failed`.
    public var status: String
    /// The page's title, once fetched.
    public var title: String?
    /// The page's description.
    public var description: String?
    /// The site's name.
    public var siteName: String?
    /// The thumbnail's address on the server (`/v1/blobs/<sha256>`).
    public var imageUrl: String?
    /// Why ingestion failed.
    public var lastError: String?
    /// When it was shared (ISO 8601).
    public var createdAt: String
    /// When it last changed (ISO 8601).
    public var updatedAt: String

    init(_ post: PostResponse) {
        let format = ISO8601DateFormatter()
        id = post.id
        url = post.url
        canonicalUrl = post.canonicalUrl
        instructions = post.instructions
        status = post.status
        title = post.title
        description = post.description
        siteName = post.siteName
        imageUrl = post.imageUrl
        lastError = post.lastError
        createdAt = format.string(from: post.createdAt)
        updatedAt = format.string(from: post.updatedAt)
    }
}

/// The result of `posts.list`.
public struct SharedPostsPage: Codable, Sendable, Hashable {
    /// Newest first.
    public var posts: [SharedPost]
    /// Pass as `cursor` for the next page; absent on the last.
    public var nextCursor: String?
}

/// The result of `posts.share`.
public struct PostShareResult: Codable, Sendable, Hashable {
    /// `posted` (the server has it: `post`) or `kept` (it waits in the outbox: `reason`).
    public var state: String
    /// The share's id in the outbox.
    public var shareId: String
    /// The post, once posted.
    public var post: SharedPost?
    /// Whether the post is new (false: the person had shared this page before).
    public var created: Bool?
    /// Why it was kept.
    public var reason: String?

    init(state: String, shareId: String, post: SharedPost?, created: Bool? = nil, reason: String? = nil) {
        self.state = state
        self.shareId = shareId
        self.post = post
        self.created = created
        self.reason = reason
    }
}

/// A share waiting in the outbox.
public struct WaitingShare: Codable, Sendable, Hashable {
    /// Its id.
    public var id: String
    /// The URL as shared.
    public var url: String
    /// The note.
    public var note: String?
    /// When it was shared, in milliseconds since 1970.
    public var sharedAt: Int64

    init(_ share: PendingShare) {
        id = share.id
        url = share.url
        note = share.note
        sharedAt = share.sharedAt
    }
}

/// A share the server refused.
public struct RejectedShare: Codable, Sendable, Hashable {
    /// Its id.
    public var id: String
    /// The server's reason.
    public var reason: String
}

/// The result of `posts.pending`.
public struct PendingShares: Codable, Sendable, Hashable {
    /// Oldest first.
    public var waiting: [WaitingShare]
    /// Refused by the server, kept with the reason.
    public var rejected: [RejectedShare]
}

/// The payload of `posts.share`.
public struct PostSharePayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// An http or https URL.
    public var url: String
    /// What to do with it.
    public var note: String?
    /// The URL at most 2,048 bytes; the note is checked by the outbox.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(url, "payload.url", maxBytes: 2048)
        try FieldCheck.length(note, "payload.note", maxBytes: 4096)
    }
}

/// The payload of `posts.list`.
public struct PostsListPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// 1…100 (20 by default).
    public var limit: Int?
    /// A page's `nextCursor`.
    public var cursor: String?
    /// Ranges.
    public func validate() throws(BridgeError) {
        try FieldCheck.range(limit, 1...100, "payload.limit")
        try FieldCheck.length(cursor, "payload.cursor", maxBytes: 512)
    }
}

/// The payload of `posts.get`.
public struct PostIdPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The post's id.
    public var id: String
    /// 1…128 bytes of letters, digits, `-`, `.` and `_`.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(id, "payload.id", maxBytes: 128)
        guard id != ".", id != "..",
            id.utf8.allSatisfy({
                $0 < 0x80
                    && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber || "-._".utf8.contains($0))
            })
        else { throw .field(.invalidPayload, path: "payload.id", "is not a post id") }
    }
}
