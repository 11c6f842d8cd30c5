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
}
