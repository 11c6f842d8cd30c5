import Crypto
public import Foundation
import Hummingbird
public import Logging
import NIOCore
import PWAKitEncoding
import PWAKitLinks

/// The `ingest_post` job: fetches a post's page through the ``SafeFetcher``, reads its preview
/// (a non-rich oEmbed answer first, then Open Graph, Twitter cards, JSON-LD, the title), follows a
/// declared canonical URL on the same site, stores the thumbnail as a content-addressed blob, and
/// marks the post `ready`. A page that is gone or refused fails the post at once; a timeout or a
/// server error is tried again, and the post fails with the last error when the attempts run out.
public struct IngestPostHandler: JobHandler {
    /// `ingest_post`.
    public let kind = PlatformServer.ingestPostJob
    let storage: any ServerStorage
    let blobs: any BlobStore
    let fetcher: SafeFetcher
    let now: @Sendable () -> Date
    let logger: Logger

    /// The largest thumbnail kept.
    static let maximumThumbnail = 1 << 20
    static let imageTypes: Set<String> = ["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]

    /// A handler over the server's storage and blobs.
    public init(
        storage: any ServerStorage, blobs: any BlobStore, fetcher: SafeFetcher, now: @escaping @Sendable () -> Date = { Date() },
        logger: Logger = Logger(label: "pwakit.ingest")
    ) {
        self.storage = storage
        self.blobs = blobs
        self.fetcher = fetcher
        self.now = now
        self.logger = logger
    }

    /// See ``JobHandler``.
    public func run(_ job: JobRecord) async throws {
        guard let postId = job.postId, var post = try await storage.post(id: postId) else { return }  // deleted since
        do {
            try await ingest(&post)
        } catch {
            let permanent = Self.isPermanent(error)
            if permanent || job.attempt >= job.maxAttempts {
                post.status = .failed
                post.lastError = String(describing: error).prefix(500).description
                post.updatedAt = now()
                _ = try await storage.finishPost(post)
            }
            throw permanent ? PermanentJobFailure(String(describing: error)) : error
        }
    }

    static func isPermanent(_ error: any Error) -> Bool {
        if let fetch = error as? FetchError { return !fetch.isTransient }
        if error is LinkError { return true }
        if let status = error as? HTTPStatusFailure { return !status.isTransient }
        return false
    }

    /// An answer with a status that is not a page.
    struct HTTPStatusFailure: Error, CustomStringConvertible {
        let status: Int
        let url: String
        var isTransient: Bool { status == 408 || status == 425 || status == 429 || status >= 500 }
        var description: String { "\(url) answered HTTP \(status)" }
    }

    func ingest(_ post: inout PostRecord) async throws {
        let url = try CanonicalURL(post.canonicalURL, rules: .none)
        let page = try await fetcher.fetch(url)
        guard (200..<300).contains(page.status) else { throw HTTPStatusFailure(status: page.status, url: url.description) }
        let type = Self.mediaType(page.contentType)
        var metadata: PageMetadata?
        if type.isEmpty || type == "text/html" || type == "application/xhtml+xml" {
            var read = PageMetadata(html: PageText.decode(page.body, contentType: page.contentType), page: page.url)
            if let endpoint = read.oEmbedURL.flatMap({ try? CanonicalURL($0, rules: .none) }),
                let answer = try? await fetcher.fetch(endpoint, accept: "application/json"), (200..<300).contains(answer.status)
            {
                read.apply(oEmbed: Data(answer.body), page: page.url)
            }
            metadata = read
        }
        post.title = metadata?.title
        post.summary = metadata?.description
        post.siteName = metadata?.siteName ?? page.url.host.bare
        if type.hasPrefix("image/") {
            post.imageHash = try await store(thumbnail: page)
        } else if let image = metadata?.imageURL.flatMap({ try? CanonicalURL($0, rules: .none) }) {
            // NB: a thumbnail that cannot be had does not fail the post; the preview shows without one.
            if let fetched = try? await fetcher.fetch(image, accept: "image/avif,image/webp,image/png,image/jpeg,image/gif") {
                post.imageHash = try? await store(thumbnail: fetched)
            }
        }
        // NB: an AMP page names its ordinary page as canonical, so this resolves AMP links too.
        if let declared = metadata?.canonicalURL,
            let canonical = try? CanonicalURL(declared), canonical.description != post.canonicalURL,
            Self.sameSite(canonical.host, url.host)
        {
            if try await storage.updatePostCanonical(
                id: post.id, userId: post.userId, canonicalURL: canonical.description, now: now())
            {
                post.canonicalURL = canonical.description
            }
        }
        post.status = .ready
        post.lastError = nil
        post.updatedAt = now()
        _ = try await storage.finishPost(post)
    }

    /// A thumbnail's blob hash: an image type, not cut, at most 1 MiB.
    func store(thumbnail response: SafeFetcher.Response) async throws -> String? {
        let type = Self.mediaType(response.contentType)
        guard (200..<300).contains(response.status), Self.imageTypes.contains(type), !response.truncated,
            !response.body.isEmpty, response.body.count <= Self.maximumThumbnail
        else { return nil }
        let hash = Hex.encode(SHA256.hash(data: response.body))
        if try await blobs.size(of: hash) == nil {
            _ = try await blobs.put(
                hash: hash, body: RequestBody(buffer: ByteBuffer(bytes: response.body)), maximumSize: Self.maximumThumbnail)
        }
        return hash
    }

    /// `text/html` of `Text/HTML; charset=utf-8`; `""` without a header.
    static func mediaType(_ contentType: String?) -> String {
        contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
    }

    /// Whether two hosts are the same site: equal, or one is the other with `www.` (or `m.`, `amp.`) in front.
    static func sameSite(_ first: URLHost, _ second: URLHost) -> Bool {
        func stripped(_ host: URLHost) -> String {
            var text = host.bare
            for prefix in ["www.", "m.", "amp."] where text.hasPrefix(prefix) { text.removeFirst(prefix.count) }
            return text
        }
        return stripped(first) == stripped(second)
    }
}
