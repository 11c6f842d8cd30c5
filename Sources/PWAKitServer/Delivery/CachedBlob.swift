import HTTPTypes
import NIOCore

/// A stored blob ready to send: its bytes (small blobs) or an open descriptor (sent with `sendfile`),
/// and the heads of its usual answers.
///
/// Shared by every connection; the descriptor closes when the last user lets go, so a response still
/// being sent keeps it open after the cache has dropped the entry.
final class CachedBlob: Sendable {
    /// Where the bytes come from.
    enum Body: Sendable {
        case bytes(ByteBuffer)
        case file(NIOFileHandle)
    }

    let hash: String
    let size: Int
    let body: Body
    /// The head of the 200 answer, up to (not including) the `Date` line.
    let wholeHead: ByteBuffer
    /// The head of the 304 answer, up to (not including) the `Date` line.
    let notModifiedHead: ByteBuffer
    /// When it was read from the store, in seconds since 1970.
    let loadedAt: Int

    init(hash: String, size: Int, body: Body, loadedAt: Int) {
        self.hash = hash
        self.size = size
        self.body = body
        self.loadedAt = loadedAt
        wholeHead = BlobResponseHead.make(.whole, hash: hash, size: size)
        notModifiedHead = BlobResponseHead.make(.notModified, hash: hash, size: size)
    }

    deinit {
        if case .file(let handle) = body { try? handle.close() }
    }

    /// How many bytes of memory the entry holds for its body.
    var memoryCost: Int {
        if case .bytes(let bytes) = body { bytes.readableBytes } else { 0 }
    }

    /// Whether the entry holds an open descriptor.
    var holdsDescriptor: Bool {
        if case .file = body { true } else { false }
    }
}

/// Response heads of blob answers as HTTP/1.1 bytes, with the same headers as ``BlobAnswer/headers(hash:size:)``.
enum BlobResponseHead {
    /// The status line and headers of `answer`, without the `Date` and `Server` lines and the blank line
    /// that ``ResponseHeadTail`` adds.
    static func make(_ answer: BlobAnswer, hash: String, size: Int) -> ByteBuffer {
        let status =
            switch answer {
            case .whole: "200 OK"
            case .partial: "206 Partial Content"
            case .notModified: "304 Not Modified"
            case .unsatisfiable: "416 Range Not Satisfiable"
            }
        var text = "HTTP/1.1 \(status)\r\n"
        for field in answer.headers(hash: hash, size: size) { text += "\(field.name.rawName): \(field.value)\r\n" }
        return ByteBuffer(string: text)
    }
}

/// The end of every response head: the `Date` line (RFC 9110 IMF-fixdate), the `Server` line and the
/// blank line; formatted at most once a second per connection.
struct ResponseHeadTail {
    private let serverName: String?
    private var second = Int.min
    private var bytes = ByteBuffer()

    init(serverName: String?) {
        self.serverName = serverName
    }

    /// The tail at `second` (seconds since 1970).
    mutating func bytes(at second: Int) -> ByteBuffer {
        if second != self.second {
            self.second = second
            var text = "Date: \(HTTPDate.format(secondsSince1970: second))\r\n"
            if let serverName { text += "Server: \(serverName)\r\n" }
            bytes = ByteBuffer(string: text + "\r\n")
        }
        return bytes
    }
}
