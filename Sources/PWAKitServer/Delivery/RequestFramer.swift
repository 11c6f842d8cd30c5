import NIOCore

/// Splits what a client sends on an HTTP/1.1 connection into whole requests, so that bodiless blob
/// `GET`s and `HEAD`s can be answered before NIO's HTTP/1.1 decoder and everything else reaches it
/// unchanged and in order.
///
/// It frames only what it fully understands: a head of CRLF-ended lines with token header names, no
/// folded lines or control characters, and a body of at most one `Content-Length`. On anything else
/// (a chunked body, a bare LF, a head over 80 KiB, `Upgrade`, `CONNECT`) it stops framing for the rest
/// of the connection and hands every byte on as it is, so the decoder answers exactly as it would
/// without it. A pure state machine: ``append(_:)`` bytes, then take ``next()`` actions until `nil`.
struct RequestFramer {
    /// What to do with the next bytes.
    enum Action: Equatable {
        /// The whole head of a bodiless blob request. Whoever does not answer it passes `head` on.
        case blob(BlobRequest, head: ByteBuffer)
        /// The head of any other request (whose response the router writes); its body follows as `bytes`.
        case request(ByteBuffer)
        /// Body bytes of a passed-on request or, once framing has stopped, whatever the client sends.
        case bytes(ByteBuffer)
    }

    /// The longest head it frames (the decoder's own limit on a header list).
    static let maximumHeadLength = 80 * 1024
    /// A blob request with more header lines than this is left to the router.
    static let maximumBlobHeaderCount = 100

    private var pending: ByteBuffer?
    /// How far `pending` has been searched for the end of a head.
    private var scanned = 0
    private var bodyRemaining = 0
    /// Whether framing has stopped for this connection.
    private(set) var isPassingThrough = false

    /// Whether the bytes held are the start of a head not complete yet (what a slow client dribbles).
    var holdsPartialHead: Bool { !isPassingThrough && bodyRemaining == 0 && (pending?.readableBytes ?? 0) > 0 }

    /// Whether a request passed on still expects body bytes from the client.
    var awaitsBody: Bool { !isPassingThrough && bodyRemaining > 0 }

    /// Adds bytes read from the connection.
    mutating func append(_ bytes: ByteBuffer) {
        guard var buffered = pending, buffered.readableBytes > 0 else {
            pending = bytes
            return
        }
        pending = nil
        var bytes = bytes
        buffered.writeBuffer(&bytes)
        pending = buffered
    }

    /// The next action, or `nil` when what is left is not yet a whole head.
    mutating func next() -> Action? {
        guard var buffer = pending, buffer.readableBytes > 0 else {
            pending = nil
            return nil
        }
        pending = nil
        if isPassingThrough { return .bytes(buffer) }
        if bodyRemaining > 0 {
            let body = buffer.readSlice(length: min(bodyRemaining, buffer.readableBytes))!
            bodyRemaining -= body.readableBytes
            keep(buffer)
            return .bytes(body)
        }
        let end = buffer.withUnsafeReadableBytes { Self.headEnd(in: $0, from: scanned) }
        switch end {
        case .incomplete(let searched):
            guard buffer.readableBytes <= Self.maximumHeadLength else { return passThrough(buffer) }
            scanned = searched
            pending = buffer
            return nil
        case .malformed:
            return passThrough(buffer)
        case .complete(let length):
            scanned = 0
            guard length <= Self.maximumHeadLength,
                let head = buffer.withUnsafeReadableBytes({ Self.parseHead(UnsafeRawBufferPointer(rebasing: $0[..<length])) })
            else { return passThrough(buffer) }
            let bytes = buffer.readSlice(length: length)!
            keep(buffer)
            if let blob = head.blob { return .blob(blob, head: bytes) }
            bodyRemaining = head.bodyLength
            return .request(bytes)
        }
    }

    private mutating func keep(_ rest: ByteBuffer) {
        pending = rest.readableBytes > 0 ? rest : nil
    }

    private mutating func passThrough(_ buffer: ByteBuffer) -> Action {
        isPassingThrough = true
        return .bytes(buffer)
    }

    // MARK: Parsing

    enum HeadEnd: Equatable {
        /// No blank line yet; the search may resume at this offset.
        case incomplete(searched: Int)
        /// A line ending in a bare LF, or a head that starts with a blank line.
        case malformed
        /// The head is this many bytes long, its final CRLF CRLF included.
        case complete(length: Int)
    }

    /// Finds the blank line that ends a head, searching from `start`.
    static func headEnd(in bytes: UnsafeRawBufferPointer, from start: Int) -> HeadEnd {
        var index = start
        while index < bytes.count {
            if bytes[index] == lf {
                guard index > 0, bytes[index - 1] == cr, index != 1 else { return .malformed }
                if index >= 3, bytes[index - 2] == lf { return .complete(length: index + 1) }
            }
            index += 1
        }
        return .incomplete(searched: bytes.count)
    }

    struct Head: Equatable {
        var bodyLength: Int
        var blob: BlobRequest?
    }

    /// Parses a whole head (ending in CRLF CRLF); `nil` when framing must stop.
    static func parseHead(_ bytes: UnsafeRawBufferPointer) -> Head? {
        // Request line: method SP target SP version.
        guard let requestLineEnd = lineEnd(bytes, from: 0),
            let firstSpace = firstIndex(of: space, in: bytes, 0..<requestLineEnd),
            let secondSpace = firstIndex(of: space, in: bytes, (firstSpace + 1)..<requestLineEnd)
        else { return nil }
        let method = firstSpace == 0 ? nil : bytes[0..<firstSpace]
        let target = bytes[(firstSpace + 1)..<secondSpace]
        let version = bytes[(secondSpace + 1)..<requestLineEnd]
        guard let method, method.allSatisfy(isTokenByte), !target.isEmpty, target.allSatisfy({ $0 > space && $0 < 0x7F }),
            !matches(method, "CONNECT")
        else { return nil }
        let isHTTP11 = matches(version, "HTTP/1.1")
        guard isHTTP11 || matches(version, "HTTP/1.0") else { return nil }

        var contentLength: Int?
        var blobCandidate = isHTTP11
        var ifNoneMatch: String?
        var range: String?
        var ifRange: String?
        var connection: String?
        var headerCount = 0
        var lineStart = requestLineEnd + 2
        while let end = lineEnd(bytes, from: lineStart), end > lineStart {
            defer { lineStart = end + 2 }
            headerCount += 1
            guard let colon = firstIndex(of: UInt8(ascii: ":"), in: bytes, lineStart..<end), colon > lineStart else { return nil }
            let name = bytes[lineStart..<colon]
            guard name.allSatisfy(isTokenByte) else { return nil }
            var valueStart = colon + 1
            var valueEnd = end
            while valueStart < valueEnd, isBlank(bytes[valueStart]) { valueStart += 1 }
            while valueEnd > valueStart, isBlank(bytes[valueEnd - 1]) { valueEnd -= 1 }
            let value = bytes[valueStart..<valueEnd]
            guard value.allSatisfy({ $0 == tab || ($0 >= space && $0 != 0x7F) }) else { return nil }

            func record(_ slot: inout String?) {
                if slot != nil { blobCandidate = false }
                slot = String(decoding: value, as: UTF8.self)
            }
            switch name.count {
            case 14 where lowercaseEquals(name, "content-length"):
                guard contentLength == nil, (1...18).contains(value.count), value.allSatisfy(isDigit) else { return nil }
                contentLength = value.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            case 17 where lowercaseEquals(name, "transfer-encoding"), 7 where lowercaseEquals(name, "upgrade"):
                return nil
            case 6 where lowercaseEquals(name, "expect"):
                blobCandidate = false
            case 10 where lowercaseEquals(name, "connection"):
                record(&connection)
            case 13 where lowercaseEquals(name, "if-none-match"):
                record(&ifNoneMatch)
            case 5 where lowercaseEquals(name, "range"):
                record(&range)
            case 8 where lowercaseEquals(name, "if-range"):
                record(&ifRange)
            default:
                break
            }
        }
        let bodyLength = contentLength ?? 0
        let blobMethod: BlobRequest.Method? =
            matches(method, "GET") ? .get : matches(method, "HEAD") ? .head : nil
        guard blobCandidate, bodyLength == 0, headerCount <= maximumBlobHeaderCount, let blobMethod,
            connection.map({ $0.lowercased() == "keep-alive" }) ?? true,
            target.count == blobPrefix.count + 64, target.starts(with: blobPrefix),
            let key = BlobKey(hex: target.dropFirst(blobPrefix.count))
        else { return Head(bodyLength: bodyLength, blob: nil) }
        return Head(
            bodyLength: 0,
            blob: BlobRequest(method: blobMethod, key: key, ifNoneMatch: ifNoneMatch, range: range, ifRange: ifRange))
    }

    static let blobPrefix = Array("/v1/blobs/".utf8)
    private static let cr = UInt8(ascii: "\r")
    private static let lf = UInt8(ascii: "\n")
    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// The offset of the CR that ends the line starting at `start` (every LF is known to follow a CR).
    private static func lineEnd(_ bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let lf = firstIndex(of: lf, in: bytes, start..<bytes.count) else { return nil }
        return lf - 1
    }

    private static func firstIndex(of byte: UInt8, in bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound {
            if bytes[index] == byte { return index }
            index += 1
        }
        return nil
    }

    private static func matches(_ bytes: Slice<UnsafeRawBufferPointer>, _ text: StaticString) -> Bool {
        bytes.count == text.utf8CodeUnitCount
            && text.withUTF8Buffer { expected in zip(bytes, expected).allSatisfy { $0 == $1 } }
    }

    /// Compares ASCII case-insensitively with `lowercase`, which holds only lowercase letters and `-`.
    private static func lowercaseEquals(_ bytes: Slice<UnsafeRawBufferPointer>, _ lowercase: StaticString) -> Bool {
        bytes.count == lowercase.utf8CodeUnitCount
            && lowercase.withUTF8Buffer { expected in zip(bytes, expected).allSatisfy { $0 | 0x20 == $1 } }
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == space || byte == tab }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
