import NIOCore
import Synchronization

/// A bounded cache of ready-to-send blobs of a ``FileBlobStore``, shared by every connection of a server.
///
/// Content-addressed blobs never change, so a cached copy or open descriptor can only go stale by the
/// blob being deleted. An entry is therefore used for ``Limits/revalidationInterval`` seconds, then read
/// from the store again (a deleted blob is served for at most that long, by this replica). Blobs up to
/// ``Limits/inMemoryLimit`` bytes are held in memory; larger ones as open descriptors. Entries leave in
/// the order they came when a limit is reached.
final class BlobCache: Sendable {
    /// Bounds on what the cache holds.
    struct Limits: Sendable {
        /// The most entries.
        var maximumEntries = 4096
        /// The most bytes of blob bodies held in memory.
        var maximumBytes = 32 * 1024 * 1024
        /// The most open descriptors.
        var maximumDescriptors = 256
        /// Blobs up to this size are held in memory, larger ones as open descriptors.
        var inMemoryLimit = 64 * 1024
        /// Seconds an entry is used before the blob is read from the store again.
        var revalidationInterval = 1
    }

    private struct Entry {
        let blob: CachedBlob
        let serial: UInt64
    }

    private struct State {
        var entries: [BlobKey: Entry] = [:]
        /// Keys in the order they were stored (with the serial of the entry stored); stale pairs are skipped.
        var order: [(key: BlobKey, serial: UInt64)] = []
        var orderStart = 0
        var nextSerial: UInt64 = 0
        var bytes = 0
        var descriptors = 0
    }

    let store: FileBlobStore
    let limits: Limits
    private let state = Mutex(State())

    init(store: FileBlobStore, limits: Limits = Limits()) {
        self.store = store
        self.limits = limits
    }

    /// The blob stored under `key`, read from the store when it is not cached or its entry is older than
    /// the revalidation interval at `now` (seconds since 1970); `nil` when the store does not hold it.
    func blob(_ key: BlobKey, now: Int) -> CachedBlob? {
        if let cached = state.withLock({ state in state.entries[key]?.blob }), isFresh(cached, now: now) { return cached }
        guard let loaded = load(key, now: now) else {
            state.withLock { state in
                if let stale = state.entries.removeValue(forKey: key) { Self.forget(stale.blob, in: &state) }
            }
            return nil
        }
        return state.withLock { state in insert(loaded, key: key, now: now, in: &state) }
    }

    private func isFresh(_ blob: CachedBlob, now: Int) -> Bool {
        now >= blob.loadedAt && now - blob.loadedAt < limits.revalidationInterval
    }

    /// How many entries, bytes and descriptors the cache holds.
    var usage: (entries: Int, bytes: Int, descriptors: Int) {
        state.withLock { ($0.entries.count, $0.bytes, $0.descriptors) }
    }

    private func load(_ key: BlobKey, now: Int) -> CachedBlob? {
        let hash = key.hex
        guard let (descriptor, size) = store.openStored(hash) else { return nil }
        guard size <= limits.inMemoryLimit else {
            return CachedBlob(
                hash: hash, size: size, body: .file(NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor)),
                loadedAt: now)
        }
        defer { FileBlobStore.closeDescriptor(descriptor) }
        var bytes = ByteBufferAllocator().buffer(capacity: size)
        guard (try? FileBlobStore.read(descriptor, offset: 0, count: size, into: &bytes)) != nil else { return nil }
        return CachedBlob(hash: hash, size: size, body: .bytes(bytes), loadedAt: now)
    }

    private func insert(_ blob: CachedBlob, key: BlobKey, now: Int, in state: inout State) -> CachedBlob {
        if let current = state.entries[key], isFresh(current.blob, now: now) {
            return current.blob  // another connection stored it meanwhile
        }
        if let replaced = state.entries[key] { Self.forget(replaced.blob, in: &state) }
        state.nextSerial += 1
        state.entries[key] = Entry(blob: blob, serial: state.nextSerial)
        state.order.append((key, state.nextSerial))
        state.bytes += blob.memoryCost
        state.descriptors += blob.holdsDescriptor ? 1 : 0
        while state.entries.count > limits.maximumEntries || state.bytes > limits.maximumBytes
            || state.descriptors > limits.maximumDescriptors, state.orderStart < state.order.count
        {
            let (oldest, serial) = state.order[state.orderStart]
            state.orderStart += 1
            if let entry = state.entries[oldest], entry.serial == serial {
                state.entries[oldest] = nil
                Self.forget(entry.blob, in: &state)
            }
        }
        // NB: replaced entries leave stale pairs behind; compact once they outnumber the live ones.
        if state.order.count - state.orderStart > 2 * state.entries.count + 64 {
            let entries = state.entries
            state.order = state.order[state.orderStart...].filter { entries[$0.key]?.serial == $0.serial }
            state.orderStart = 0
        }
        return blob
    }

    private static func forget(_ blob: CachedBlob, in state: inout State) {
        state.bytes -= blob.memoryCost
        state.descriptors -= blob.holdsDescriptor ? 1 : 0
    }
}
