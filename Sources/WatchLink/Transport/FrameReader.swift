#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a connection's frames (`length (4 bytes, big-endian) | kind (1) | body`, the length
/// counting the kind and the body) through one buffer: a `read` takes in as many frames as have
/// arrived, where reading each header and body on its own took two reads per frame.
struct FrameReader {
    /// One frame: its kind byte and its body.
    struct Frame {
        var kind: UInt8
        var body: [UInt8]
    }

    let fd: Int32
    /// The largest length a frame may declare; a longer one ends the connection.
    let maximumLength: Int
    /// The least a read asks for beyond what the next frame still needs.
    let chunk: Int
    /// The read buffer: its count is the room, `start..<end` the bytes read and not yet returned.
    /// It is only ever grown (to what the largest frame read, or a chunk past a partial one, needed:
    /// at most ``maximumLength`` + 3 bytes and a chunk), never filled or shrunk per read.
    private var buffer: [UInt8] = []
    /// Where the first unread byte of `buffer` is.
    private var start = 0
    /// Where the bytes read so far end.
    private var end = 0

    /// A reader of `fd`; `chunk` 1 reads no byte past the frame it needs (a reader made per frame).
    init(fd: Int32, maximumLength: Int, chunk: Int = 16_384) {
        self.fd = fd
        self.maximumLength = maximumLength
        self.chunk = chunk
    }

    /// Whether bytes of a frame not yet returned are already here.
    var hasBuffered: Bool { start < end }

    /// Whether a whole frame is already here, so the next ``next()`` returns without reading.
    var hasWholeFrame: Bool {
        let available = end - start
        guard available >= 4 else { return false }
        let length =
            Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
        return available >= 4 + length
    }

    /// The next frame; nil at the end of the stream, on an error, or when a frame declares a
    /// length of 0 or over ``maximumLength``.
    mutating func next() -> Frame? {
        next { kind, body in Frame(kind: kind, body: Array(body)) }
    }

    /// The next frame, as `make` makes it from the frame's kind and its body read in place, in
    /// the read buffer: a body that becomes a `Data` is copied once, not into an array first.
    /// `make` must not keep the buffer it is given. `nil` as for ``next()``.
    mutating func next<Made>(_ make: (_ kind: UInt8, _ body: UnsafeRawBufferPointer) -> Made) -> Made? {
        while true {
            let available = end - start
            var needed = 5
            if available >= 4 {
                let length =
                    Int(buffer[start]) << 24 | Int(buffer[start + 1]) << 16 | Int(buffer[start + 2]) << 8 | Int(buffer[start + 3])
                guard length >= 1, length <= maximumLength else { return nil }
                needed = 4 + length
                if available >= needed {
                    let range = (start + 5)..<(start + needed)
                    let made = buffer.withUnsafeBytes { make($0[start + 4], UnsafeRawBufferPointer(rebasing: $0[range])) }
                    start += needed
                    return made
                }
            }
            guard fill(toHold: needed) else { return nil }
        }
    }

    /// Reads once, at most `max(count - unread, chunk)` bytes, so that `count` bytes from the first
    /// unread one can be held; false at the end or on an error. The unread bytes move to the
    /// buffer's front only when the room after them is too small (once every byte read has been
    /// returned, none are left, and nothing moves).
    private mutating func fill(toHold count: Int) -> Bool {
        let unread = end - start
        let wanted = max(count - unread, chunk)
        if unread == 0 {
            start = 0
            end = 0
        } else if buffer.count - end < wanted, start > 0 {
            let from = start
            buffer.withUnsafeMutableBytes { raw in
                guard let base = raw.baseAddress else { return }
                _ = memmove(base, base + from, unread)
            }
            start = 0
            end = unread
        }
        if buffer.count - end < wanted {
            buffer.append(contentsOf: repeatElement(0, count: end + wanted - buffer.count))
        }
        let at = end
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress.map { $0 + at }, wanted) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            end += n
            return true
        }
    }
}
