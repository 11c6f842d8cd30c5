import NIOCore
import Synchronization

/// The last encoded app list and the catalog revision it shows, shared by every request.
final class CatalogListCache: Sendable {
    private let entry = Mutex<(revision: Int64, body: ByteBuffer)?>(nil)

    /// The kept body when it shows `revision` or a later one.
    func body(revision: Int64) -> ByteBuffer? {
        entry.withLock { entry in entry.flatMap { $0.revision >= revision ? $0.body : nil } }
    }

    /// Keeps `body` unless a later revision is already kept.
    func store(_ body: ByteBuffer, revision: Int64) {
        entry.withLock { entry in
            if entry.map({ $0.revision <= revision }) ?? true { entry = (revision, body) }
        }
    }
}
