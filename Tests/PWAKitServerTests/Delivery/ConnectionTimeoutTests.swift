import Foundation
import NIOCore
import NIOEmbedded
import Testing

@testable import PWAKitServer

/// The blob handler's watchdog on an embedded channel, its clock moved by the test (nothing sleeps).
@Suite("connection timeouts: slow heads and idle connections are closed; busy ones are not")
struct ConnectionTimeoutTests {
    func channel(head: Int = 20, idle: Int = 75) throws -> (EmbeddedChannel, BlobDeliveryHandler) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-timeouts-\(UUID().uuidString)")
        let handler = BlobDeliveryHandler(
            cache: BlobCache(store: try FileBlobStore(root: root)), serverName: nil, now: { 1_800_000_000 },
            timeouts: .init(head: head, idle: idle))
        let channel = EmbeddedChannel(handler: handler)
        try channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 1)).wait()
        return (channel, handler)
    }

    func send(_ text: String, to channel: EmbeddedChannel) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    @Test("a head dribbled a byte every few seconds is closed 20 s after it began")
    func slowloris() throws {
        let (channel, _) = try channel()
        let head = "GET /v1/apps HTTP/1.1\r\nHost: x\r\n"
        for character in head.prefix(4) {
            try send(String(character), to: channel)
            channel.embeddedEventLoop.advanceTime(by: .seconds(4))
        }
        try send(String(head.dropFirst(4).prefix(1)), to: channel)
        channel.embeddedEventLoop.advanceTime(by: .seconds(3))
        #expect(channel.isActive, "19 s into the head")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("a complete head resets the clock; an idle connection closes after 75 s, not while a response is due")
    func idle() throws {
        let (channel, handler) = try channel()
        try send("GET /v1/apps HTTP/1.1\r\nHost: x\r\n\r\n", to: channel)
        // The router is answering: waiting on the server is never idle.
        channel.embeddedEventLoop.advanceTime(by: .seconds(200))
        #expect(channel.isActive)
        handler.routerResponseEnded()
        channel.embeddedEventLoop.advanceTime(by: .seconds(74))
        #expect(channel.isActive)
        try send("GET /v1/apps HTTP/1.1\r\nHost: x\r\n\r\n", to: channel)
        handler.routerResponseEnded()
        channel.embeddedEventLoop.advanceTime(by: .seconds(74))
        #expect(channel.isActive, "a request restarts the idle clock")
        channel.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!channel.isActive)
    }

    @Test("a body dribbled slower than 500 B/s after its first 20 s is closed; a steady one is not")
    func slowBody() throws {
        let (channel, handler) = try channel()
        try send("PUT /v1/blobs/x HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", to: channel)
        // The router waits for the body: that is the client's part, so it is timed.
        channel.embeddedEventLoop.advanceTime(by: .seconds(10))
        try send(String(repeating: "a", count: 1000), to: channel)  // +2 s
        channel.embeddedEventLoop.advanceTime(by: .seconds(11))
        #expect(channel.isActive, "21 of 22 s")
        for _ in 0..<5 {
            try send("b", to: channel)  // a byte now and then earns nothing
            channel.embeddedEventLoop.advanceTime(by: .milliseconds(200))
        }
        #expect(!channel.isActive)
        _ = handler

        // 600 B every second keeps it open however long it takes.
        let (steady, steadyHandler) = try self.channel()
        try send("PUT /v1/blobs/x HTTP/1.1\r\nHost: x\r\nContent-Length: 60000\r\n\r\n", to: steady)
        for _ in 0..<99 {
            try send(String(repeating: "c", count: 600), to: steady)
            steady.embeddedEventLoop.advanceTime(by: .seconds(1))
        }
        #expect(steady.isActive)
        try send(String(repeating: "c", count: 600), to: steady)
        // The body is complete: now the server is the one answering, never timed out.
        steady.embeddedEventLoop.advanceTime(by: .seconds(300))
        #expect(steady.isActive)
        steadyHandler.routerResponseEnded()
    }
}
