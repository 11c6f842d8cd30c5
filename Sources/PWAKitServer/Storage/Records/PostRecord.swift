public import Foundation

/// A shared link kept for its owner: the URL as shared, its canonical form (unique per owner),
/// an optional note, and the preview its ingestion built.
public struct PostRecord: Sendable, Hashable {
    /// Where the post is in its ingestion.
    public enum Status: String, Sendable, Hashable, Codable {
        /// Queued or being fetched.
        case pending
        /// The preview is built.
        case ready
        /// Ingestion gave up; ``PostRecord/lastError`` says why.
        case failed
    }

    /// The post's id (a UUID).
    public var id: String
    /// The owner.
    public var userId: String
    /// The URL as it was shared.
    public var url: String
    /// The canonical URL, unique per owner.
    public var canonicalURL: String
    /// The note the person added, if any.
    public var instructions: String?
    /// Where ingestion is.
    public var status: Status
    /// The page's title, description and site, once fetched.
    public var title: String?
    /// The page's description.
    public var summary: String?
    /// The site's name.
    public var siteName: String?
    /// The SHA-256 of the thumbnail blob, when one was fetched.
    public var imageHash: String?
    /// Why ingestion failed, when it did.
    public var lastError: String?
    /// When it was shared.
    public var createdAt: Date
    /// When it last changed.
    public var updatedAt: Date

    /// Creates a record.
    public init(
        id: String, userId: String, url: String, canonicalURL: String, instructions: String?, status: Status = .pending,
        title: String? = nil, summary: String? = nil, siteName: String? = nil, imageHash: String? = nil,
        lastError: String? = nil, createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.userId = userId
        self.url = url
        self.canonicalURL = canonicalURL
        self.instructions = instructions
        self.status = status
        self.title = title
        self.summary = summary
        self.siteName = siteName
        self.imageHash = imageHash
        self.lastError = lastError
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }
}
