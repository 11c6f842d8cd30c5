/// An idempotency key as the inbox's table keeps it: the key with its hash, computed once.
///
/// The table hashes a key on every lookup, and again for every entry each time it grows; it
/// compares the key with each entry its probe meets. With the hash kept beside the key, growing
/// rehashes one integer per entry, and a probe compares integers, reading a key's bytes only
/// when the hashes match. The hash is `String.hashValue`, randomly seeded for each process (and
/// each table hashes it again with a seed of its own), so a counterpart cannot choose keys that
/// collide. It is never persisted or sent: a restart computes it anew.
struct InboxKey: Hashable, Sendable {
    /// The request's idempotency key.
    let key: String
    /// `key.hashValue`.
    let hash: Int

    /// The key of the request whose idempotency key is `key`.
    init(_ key: String) {
        self.key = key
        self.hash = key.hashValue
    }

    static func == (a: InboxKey, b: InboxKey) -> Bool { a.hash == b.hash && a.key == b.key }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
}
