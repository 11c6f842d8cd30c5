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
    private var buffer: [UInt8] = []
    /// Where the first unread byte of `buffer` is.
    private var start = 0

    /// A reader of `fd`; `chunk` 1 reads no byte past the frame it needs (a reader made per frame).
    init(fd: Int32, maximumLength: Int, chunk: Int = 16_384) {
        self.fd = fd
        self.maximumLength = maximumLength
        self.chunk = chunk
    }

    /// Whether bytes of a frame not yet returned are already here.
    var hasBuffered: Bool { start < buffer.count }

    /// Whether a whole frame is already here, so the next ``next()`` returns without reading.
    var hasWholeFrame: Bool {
        let available = buffer.count - start
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
            let available = buffer.count - start
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

    /// Reads once, into room for at least `count` bytes from `start`; false at the end or on an error.
    private mutating func fill(toHold count: Int) -> Bool {
        if start > 0 {
            buffer.removeSubrange(0..<start)
            start = 0
        }
        let have = buffer.count
        let room = max(count - have, chunk)
        buffer.append(contentsOf: repeatElement(0, count: room))
        while true {
            let n = buffer[have...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            buffer.removeSubrange((have + max(n, 0))...)
            return n > 0
        }
    }
}
