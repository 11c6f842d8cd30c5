public import Foundation

/// The body of `POST /v1/posts`: a shared link and an optional note.
public struct CreatePostRequest: Codable, Hashable, Sendable {
    /// The URL as shared (`http` or `https`, at most 2,048 bytes); the server stores its canonical form.
    public var url: String
    /// What the person wants done with it, at most ``PostRules/maximumInstructions`` bytes.
    public var instructions: String?

    /// Creates a request.
    public init(url: String, instructions: String? = nil) {
        self.url = url
        self.instructions = instructions
    }
}

/// The body of `PATCH /v1/posts/{id}`: the note, replaced (`null` removes it).
public struct UpdatePostRequest: Codable, Hashable, Sendable {
    /// The new note, or nil to remove it.
    public var instructions: String?

    /// Creates a request.
    public init(instructions: String?) { self.instructions = instructions }
}

/// A post as the API answers it.
public struct PostResponse: Codable, Hashable, Sendable {
    /// The post's id.
    public var id: String
    /// The URL as shared.
    public var url: String
    /// Its canonical form, unique per owner.
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
    /// The thumbnail, `/v1/blobs/<sha256>`, when one was fetched.
    public var imageUrl: String?
    /// Why ingestion failed, when it did.
    public var lastError: String?
    /// When it was shared.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// Creates a response.
    public init(
        id: String, url: String, canonicalUrl: String, instructions: String?, status: String, title: String?,
        description: String?, siteName: String?, imageUrl: String?, lastError: String?, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.url = url
        self.canonicalUrl = canonicalUrl
        self.instructions = instructions
        self.status = status
        self.title = title
        self.description = description
        self.siteName = siteName
        self.imageUrl = imageUrl
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}

/// A page of `GET /v1/posts`: newest first, and the cursor of the next page when there is one.
public struct PostsPage: Codable, Hashable, Sendable {
    /// The posts.
    public var posts: [PostResponse]
    /// Pass as `cursor` for the next page; nil on the last page.
    public var nextCursor: String?

    /// Creates a page.
    public init(posts: [PostResponse], nextCursor: String?) {
        self.posts = posts
        self.nextCursor = nextCursor
    }
}

/// The body of `POST /v1/posts/canonicalize`.
public struct CanonicalizeRequest: Codable, Hashable, Sendable {
    /// The URL to read.
    public var url: String

    /// Creates a request.
    public init(url: String) { self.url = url }
}

/// The answer of `POST /v1/posts/canonicalize`: the canonical form, and the caller's post for it if any.
public struct CanonicalizeResponse: Codable, Hashable, Sendable {
    /// The canonical URL.
    public var canonicalUrl: String
    /// The caller's post with this canonical URL, if there is one.
    public var existingPostId: String?

    /// Creates an answer.
    public init(canonicalUrl: String, existingPostId: String?) {
        self.canonicalUrl = canonicalUrl
        self.existingPostId = existingPostId
    }
}

/// The limits of posts, the same on the device and the server.
public enum PostRules {
    /// The most bytes of a note.
    public static let maximumInstructions = 2000
    /// The most posts on one page.
    public static let maximumPageSize = 100
    /// A page's size when none is asked.
    public static let defaultPageSize = 20

    /// Why `text` cannot be a note, or nil: at most ``maximumInstructions`` bytes, no control
    /// characters other than line feeds and tabs.
    public static func instructionsProblem(_ text: String) -> String? {
        if text.utf8.count > maximumInstructions { return "must be at most \(maximumInstructions) bytes" }
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }) {
            return "must not hold control characters other than line feeds and tabs"
        }
        return nil
    }
}
