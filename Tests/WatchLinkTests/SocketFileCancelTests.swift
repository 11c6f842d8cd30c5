import Foundation
import Synchronization
import Testing

@testable import WatchLink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Cancelling an outgoing file over the socket transport while its sender is part-way: waiting
/// for the receiver's answer to `fileBegin`, or streaming chunks. A raw peer stands in for the
/// receiver, so the frames the session sends are seen exactly.
// NB: generous, as in `SocketFileTransferTests`.
@Suite(.timeLimit(.minutes(5))) struct SocketFileCancelTests {
    struct Setup {
        let root: String
        let listener: Int32
        let phone: SocketSession
        let events: SocketFileTransferTests.FileRecorder

        init() throws {
            root = SocketFileTransferTests().directory()
            listener = try SocketIO.listen(path: root + "/s")
            // NB: a long stall timeout: on a loaded machine a pause must not drop the connection mid-test.
            phone = try SocketSession(
                socketPath: root + "/s", role: .connect, directory: root + "/a", stallTimeout: .seconds(120))
            events = SocketFileTransferTests.FileRecorder()
            phone.activate(delegate: events)
        }

        func file(_ name: String, bytes: Int) throws -> URL {
            let url = URL(fileURLWithPath: root + "/" + name)
            try Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }).write(to: url)
            return url
        }

        func tearDown() {
            phone.invalidate()
            close(listener)
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    /// The next frame that is not the outstanding-file list, with the transfer id it names.
    static func frame(_ peer: SocketFileTransferTests.RawPeer) -> (SocketSession.Kind, UUID?, [UInt8])? {
        guard let (kind, body) = peer.receive(skipping: [.fileOutstanding]) else { return nil }
        return (kind, body.count >= 16 ? UUID.fromBytes(Array(body[0..<16])) : nil, Array(body.dropFirst(16)))
    }

    /// Checks that the session's next file is `next` from its first frame on: nothing more of a
    /// cancelled file comes in between. Completes `next`.
    static func expectNextFile(_ next: FileTransfer, _ setup: Setup, _ peer: SocketFileTransferTests.RawPeer) async {
        let begin = frame(peer)
        #expect(begin?.0 == .fileBegin && begin?.1 == next.id)
        peer.resume(next.id, at: 0)
        var body: [UInt8] = []
        while let (kind, id, rest) = frame(peer), kind == .fileChunk {
            #expect(id == next.id)
            body += rest
        }
        #expect(body.count == Int(next.size))
        peer.send(.fileAck, SocketSession.bytes(of: next.id))
        let finished: WatchLinkError?? = await setup.events.next { event -> WatchLinkError?? in
            if case .finished(let t, let error) = event, t.id == next.id { .some(error) } else { nil }
        }
        #expect(finished == .some(nil))
    }

    @Test func aCancelWhileTheSenderWaitsForTheResumeAnswerEndsTheAttemptAndIgnoresALateAnswer() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let first = try setup.phone.transferFile(try setup.file("first.bin", bytes: 100_000), metadata: [:])
        let peer = try SocketFileTransferTests.RawPeer.connection(from: setup.listener)
        defer { close(peer.fd) }
        let begin = Self.frame(peer)
        #expect(begin?.0 == .fileBegin && begin?.1 == first.id)

        // The receiver has not answered yet: the sender is waiting for it.
        setup.phone.cancelFileTransfer(first.id)
        // One cancel from the caller, one from the sender giving up its attempt; no chunk.
        for _ in 0..<2 {
            let cancel = Self.frame(peer)
            #expect(cancel?.0 == .fileCancel && cancel?.1 == first.id)
        }
        let finished = await setup.events.next { if case .finished(let t, let e) = $0, t.id == first.id { e } else { nil } }
        #expect(finished?.code == .cancelled)

        // A late answer to the cancelled file's begin is ignored, and is not kept for later.
        peer.resume(first.id, at: 0)
        let second = try setup.phone.transferFile(try setup.file("second.bin", bytes: 70_000), metadata: [:])
        await Self.expectNextFile(second, setup, peer)
        #expect(setup.phone.progress(ofFileTransfer: first.id) == nil)
        #expect(setup.phone.state.withLock { $0.resumeOffsets[first.id] == nil && $0.fileProgress[first.id] == nil })
        #expect(setup.phone.outstandingFileTransfers.isEmpty)
    }

    @Test func aCancelWhileStreamingStopsTheChunksAndLeavesNoProgressBehind() async throws {
        let setup = try Setup()
        defer { setup.tearDown() }
        let size = 64 * SocketSession.fileChunkSize
        let first = try setup.phone.transferFile(try setup.file("big.bin", bytes: size), metadata: [:])
        let peer = try SocketFileTransferTests.RawPeer.connection(from: setup.listener)
        defer { close(peer.fd) }
        let begin = Self.frame(peer)
        #expect(begin?.0 == .fileBegin && begin?.1 == first.id)
        peer.resume(first.id, at: 0)
        let chunk = Self.frame(peer)
        #expect(chunk?.0 == .fileChunk && chunk?.1 == first.id)

        // NB: the sender is likely blocked on the full socket now; the cancel must not wait for it.
        setup.phone.cancelFileTransfer(first.id)
        #expect(setup.phone.progress(ofFileTransfer: first.id) == nil)
        // Chunks already written may still arrive; then the caller's cancel and the sender's.
        var chunks = 1
        var cancels = 0
        while cancels < 2, let (kind, id, _) = Self.frame(peer) {
            #expect(id == first.id)
            switch kind {
            case .fileChunk: chunks += 1
            case .fileCancel: cancels += 1
            default: Issue.record("unexpected frame \(kind)")
            }
        }
        #expect(cancels == 2)
        #expect(chunks < 64)
        // The sender stopped: its last progress is not recorded for a transfer that left the queue.
        #expect(setup.phone.state.withLock { $0.fileProgress[first.id] == nil })
        let finished = await setup.events.next { if case .finished(let t, let e) = $0, t.id == first.id { e } else { nil } }
        #expect(finished?.code == .cancelled)

        let second = try setup.phone.transferFile(try setup.file("second.bin", bytes: 10_000), metadata: [:])
        await Self.expectNextFile(second, setup, peer)
        #expect(setup.phone.outstandingFileTransfers.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: setup.phone.outgoingPath(first.id)))
    }
}
