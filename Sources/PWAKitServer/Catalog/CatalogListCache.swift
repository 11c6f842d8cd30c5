import NIOCore
import Synchronization

/// The last encoded app list and the catalog revision it shows, shared by every request.
final class CatalogListCache: Sendable {
    private let entry = Mutex<(revision: Int64, body: ByteBuffer, etag: String)?>(nil)

    /// The kept body and its entity tag when it shows `revision` or a later one.
    func body(revision: Int64) -> (body: ByteBuffer, etag: String)? {
        entry.withLock { entry in entry.flatMap { $0.revision >= revision ? ($0.body, $0.etag) : nil } }
    }

    /// Keeps `body` unless a later revision is already kept.
    func store(_ body: ByteBuffer, etag: String, revision: Int64) {
        entry.withLock { entry in
            if entry.map({ $0.revision <= revision }) ?? true { entry = (revision, body, etag) }
        }
    }
}
