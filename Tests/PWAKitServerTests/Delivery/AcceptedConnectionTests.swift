import Foundation
import Logging
import NIOCore
import NIOEmbedded
import Testing

@testable import PWAKitServer

/// A connection the server accepted and then dropped unhandled (it stopped in between).
@Suite("Accepted connections")
struct AcceptedConnectionTests {
    @Test("a connection dropped before a handler took it is closed, and the process lives", .timeLimit(.minutes(1)))
    func droppedUnhandled() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-accepted-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let setup = BlobHTTP1Channel(
            responder: { _, _, _ in }, cache: BlobCache(store: try FileBlobStore(root: root)), serverName: nil,
            now: { 0 })
        let channel = NIOAsyncTestingChannel()
        let logger = Logger(label: "test")
        weak var dropped: AcceptedHTTPConnection?
        do {
            // NB: the pipeline is built on the channel's loop, as the server's bootstrap builds it; the
            // future holds the connection too, so it goes out of scope with it.
            let future = try await channel.testingEventLoop.executeInContext { setup.setup(channel: channel, logger: logger) }
            let accepted = try await future.get()
            dropped = accepted
        }
        // NB: released once the loop's and the runtime's last references to it go, which on a
        // loaded machine may be a moment after the scope ends; nothing holds it for longer.
        for attempt in 0..<3_000 where dropped != nil {
            if attempt < 1_000 { await Task.yield() } else { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(dropped == nil, "nothing else holds the connection")
        // NB: the connection becomes active only now, after its async channel was dropped: without
        // the close the async writer, freed unfinished here, trapped and took the process with it.
        // The close may come first, and then the channel refuses to connect.
        try? await channel.connect(to: try SocketAddress(ipAddress: "127.0.0.1", port: 8080))
        try await channel.closeFuture.get()
        #expect(!channel.isActive)
    }
}
