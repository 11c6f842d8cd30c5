import NIOCore
import Testing

@testable import PWAKitServer

@Suite("Request framing in front of the HTTP/1.1 decoder")
struct RequestFramerTests {
    static let hash = String(repeating: "0123456789abcdef", count: 4)
    static let blobGet = "GET /v1/blobs/\(hash) HTTP/1.1\r\nHost: x\r\n\r\n"

    /// Feeds `chunks` one after another and collects every action, with bytes as text.
    static func frame(_ chunks: [String]) -> (actions: [String], passingThrough: Bool) {
        var framer = RequestFramer()
        var actions: [String] = []
        for chunk in chunks {
            framer.append(ByteBuffer(string: chunk))
            while let action = framer.next() {
                switch action {
                case .blob(let request, let head):
                    actions.append("blob \(request.method) \(request.key.hex == hash) [\(String(buffer: head))]")
                case .request(let head): actions.append("request [\(String(buffer: head))]")
                case .bytes(let bytes): actions.append("bytes [\(String(buffer: bytes))]")
                }
            }
        }
        return (actions, framer.isPassingThrough)
    }

    @Test("a blob GET and HEAD are framed as blob requests, with their conditional headers")
    func blobRequests() throws {
        let head = "HEAD /v1/blobs/\(Self.hash) HTTP/1.1\r\nIf-None-Match: \"x\"\r\nrange:  bytes=0-9 \r\nIF-RANGE: \"y\"\r\n\r\n"
        #expect(Self.frame([Self.blobGet + head]).actions == ["blob get true [\(Self.blobGet)]", "blob head true [\(head)]"])
        var framer = RequestFramer()
        framer.append(ByteBuffer(string: head))
        guard case .blob(let request, _) = framer.next() else { Issue.record("not a blob request"); return }
        #expect(request.ifNoneMatch == "\"x\"")
        #expect(request.range == "bytes=0-9")
        #expect(request.ifRange == "\"y\"")
    }

    @Test("a head split across reads waits for its end, even when the blank line is split")
    func splitHead() {
        let text = Self.blobGet
        for cut in [1, 10, text.utf8.count - 3, text.utf8.count - 1] {
            let bytes = Array(text.utf8)
            let chunks = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
            #expect(Self.frame(chunks).actions == ["blob get true [\(text)]"], "cut at \(cut)")
        }
    }

    @Test("other requests are framed with their Content-Length body, so a blob request after them is seen")
    func bodies() {
        let post = "POST /v1/auth/login HTTP/1.1\r\nContent-Length: 11\r\n\r\n"
        let result = Self.frame([post + "{\"a\":", "\"bcd\"}" + Self.blobGet])
        #expect(
            result.actions == ["request [\(post)]", "bytes [{\"a\":]", "bytes [\"bcd\"}]", "blob get true [\(Self.blobGet)]"])
        #expect(!result.passingThrough)
    }

    @Test(
        "blob requests the router must answer are framed as other requests",
        arguments: [
            "GET /v1/blobs/\(hash) HTTP/1.0\r\n\r\n",
            "GET /v1/blobs/\(hash) HTTP/1.1\r\nConnection: close\r\n\r\n",
            "GET /v1/blobs/\(hash) HTTP/1.1\r\nExpect: 100-continue\r\n\r\n",
            "GET /v1/blobs/\(hash) HTTP/1.1\r\nRange: bytes=0-1\r\nRange: bytes=2-3\r\n\r\n",
            "GET /v1/blobs/\(hash) HTTP/1.1\r\nContent-Length: 0\r\nConnection: keep-alive\r\nConnection: x\r\n\r\n",
            "GET /v1/blobs/\(hash.uppercased()) HTTP/1.1\r\n\r\n",
            "GET /v1/blobs/\(hash)?x=1 HTTP/1.1\r\n\r\n",
            "GET /v1/blobs/\(hash)/ HTTP/1.1\r\n\r\n",
            "POST /v1/blobs/\(hash) HTTP/1.1\r\n\r\n",
            "GET /v1/blobs/missing HTTP/1.1\r\n\r\n",
        ])
    func routerRequests(head: String) {
        let result = Self.frame([head + Self.blobGet])
        #expect(result.actions == ["request [\(head)]", "blob get true [\(Self.blobGet)]"])
    }

    @Test(
        "anything it does not fully understand stops framing and goes on unchanged",
        arguments: [
            "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET /x HTTP/1.1\nHost: x\n\n",
            "\r\nGET /x HTTP/1.1\r\n\r\n",
            "GET /x HTTP/1.1\r\n folded: line\r\n\r\n",
            "GET /x HTTP/1.1\r\nBad Name: x\r\n\r\n",
            "GET /x HTTP/1.1\r\nName: a\u{1}b\r\n\r\n",
            "GET  /x HTTP/1.1\r\n\r\n",
            "GET /x HTTP/2.0\r\n\r\n",
            "POST /x HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n",
            "POST /x HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
            "GET /x HTTP/1.1\r\nUpgrade: websocket\r\n\r\n",
            "CONNECT x:443 HTTP/1.1\r\n\r\n",
        ])
    func passThrough(head: String) {
        let result = Self.frame([head + Self.blobGet, Self.blobGet])
        #expect(result.actions == ["bytes [\(head + Self.blobGet)]", "bytes [\(Self.blobGet)]"])
        #expect(result.passingThrough)
    }

    @Test("a head longer than the decoder's limit stops framing")
    func longHead() {
        let long = "GET /x HTTP/1.1\r\nX: " + String(repeating: "a", count: RequestFramer.maximumHeadLength)
        let result = Self.frame([long])
        #expect(result.passingThrough)
        #expect(result.actions.count == 1)
        #expect(Self.frame(["GET /x HTTP/1.1\r\nX: " + String(repeating: "a", count: 1000)]).actions.isEmpty)
    }

    @Test("a blob request with more header lines than the limit is left to the router")
    func manyHeaders() {
        let lines = (0...RequestFramer.maximumBlobHeaderCount).map { "X-\($0): y\r\n" }.joined()
        let head = "GET /v1/blobs/\(Self.hash) HTTP/1.1\r\n\(lines)\r\n"
        #expect(Self.frame([head]).actions == ["request [\(head)]"])
    }

    @Test("blob keys round-trip through hex and refuse anything but 64 lowercase hex digits")
    func keys() {
        #expect(BlobKey(hex: Array(Self.hash.utf8))?.hex == Self.hash)
        #expect(BlobKey(hex: Array(Self.hash.uppercased().utf8)) == nil)
        #expect(BlobKey(hex: Array(Self.hash.dropLast().utf8)) == nil)
        #expect(BlobKey(hex: Array((Self.hash.dropLast() + "g").utf8)) == nil)
        #expect(BlobKey(hex: Array(Self.hash.utf8)) != BlobKey(hex: Array((Self.hash.dropLast() + "0").utf8)))
    }
}
