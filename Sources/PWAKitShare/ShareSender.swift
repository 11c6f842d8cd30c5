public import PWAKitAPI

/// What became of one share.
public enum ShareOutcome: Sendable {
    /// The server has it: the post, and whether it was new (false: the person had shared the page before).
    case posted(PendingShare, PostResponse, created: Bool)
    /// Kept for later: the server could not be reached or was not ready (nothing further was tried).
    case kept(PendingShare, reason: String)
    /// The server refused it (a URL it does not take); moved to `rejected/` with the reason.
    case rejected(PendingShare, reason: String)
}

/// Sends an outbox's shares, oldest first, deleting each only once the server has answered with
/// its post. Sending a share again is harmless: the server keeps one post per canonical URL and
/// person, so a share whose answer was lost comes back as the same post.
public struct ShareSender: Sendable {
    let outbox: ShareOutbox
    let create: @Sendable (CreatePostRequest) async throws -> (PostResponse, created: Bool)

    /// A sender over `create` (the API client's `createPost`, with a fresh access token).
    public init(
        outbox: ShareOutbox, create: @escaping @Sendable (CreatePostRequest) async throws -> (PostResponse, created: Bool)
    ) {
        self.outbox = outbox
        self.create = create
    }

    /// Sends every pending share; stops at the first one the server cannot take now.
    public func sendPending() async throws -> [ShareOutcome] {
        var outcomes: [ShareOutcome] = []
        for share in try outbox.pending() {
            do {
                let (post, created) = try await create(CreatePostRequest(url: share.url, instructions: share.note))
                try outbox.remove(id: share.id)
                outcomes.append(.posted(share, post, created: created))
            } catch let error as APIClientError where Self.isRefusal(error) {
                let reason = "\(error.field.map { "\($0): " } ?? "")\(error.message) (\(error.code))"
                try outbox.reject(id: share.id, reason: reason)
                outcomes.append(.rejected(share, reason: reason))
            } catch {
                outcomes.append(.kept(share, reason: "\(error)"))
                break
            }
        }
        return outcomes
    }

    /// A 4xx answer about the share itself (not the session, not a rate limit): sending it again cannot help.
    static func isRefusal(_ error: APIClientError) -> Bool {
        guard let status = error.status else { return false }
        return (400..<500).contains(status) && ![401, 403, 408, 429].contains(status)
    }
}
