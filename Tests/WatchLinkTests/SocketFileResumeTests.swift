import Foundation
import Synchronization
import Testing

@testable import WatchLink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Resuming an interrupted file over the socket transport, from either end, with a raw peer
/// standing in for the counterpart; and how many interrupted files a receiver keeps.
// NB: generous, as in `SocketFileTransferTests`.
@Suite(.timeLimit(.minutes(5))) struct SocketFileResumeTests {
    static func descriptor(_ id: UUID, name: String = "ok.txt", size: Int) -> String {
        #"{"id": "\#(id.uuidString)", "fileName": "\#(name)", "metadata": {}, "size": \#(size)}"#
    }

    @Test func anInterruptedIncomingFileResumesWhereItStoppedAcrossAReconnectAndARestart() async throws {
        let root = SocketFileTransferTests().directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try SocketIO.listen(path: root + "/s")
        defer { close(listener) }
        let incoming = root + "/a/files-incoming/"
        let first = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        first.activate(delegate: SocketFileTransferTests.FileRecorder())
        let peer = try SocketFileTransferTests.RawPeer.connection(from: listener)
        let id = UUID()
        let dropped = UUID()
        let changed = UUID()
        peer.begin(id, Self.descriptor(id, name: "resume.txt", size: 10))
        #expect(peer.resumeOffset(of: id) == 0)
        peer.send(.fileChunk, SocketSession.bytes(of: id) + Array("12345".utf8))
        // NB: a second begin on the same connection answers with what the first one kept.
        peer.begin(id, Self.descriptor(id, name: "resume.txt", size: 10))
        #expect(peer.resumeOffset(of: id) == 5)
        peer.begin(dropped, Self.descriptor(dropped, size: 10))
        #expect(peer.resumeOffset(of: dropped) == 0)
        peer.send(.fileChunk, SocketSession.bytes(of: dropped) + Array("abc".utf8))
        peer.begin(changed, Self.descriptor(changed, size: 10))
        #expect(peer.resumeOffset(of: changed) == 0)
        peer.send(.fileChunk, SocketSession.bytes(of: changed) + Array("xyz".utf8))
        peer.begin(changed, Self.descriptor(changed, size: 12))
        #expect(peer.resumeOffset(of: changed) == 0, "another descriptor under the same id starts again")
        peer.begin(dropped, Self.descriptor(dropped, size: 10))
        #expect(peer.resumeOffset(of: dropped) == 3)
        first.invalidate()
        close(peer.fd)

        // The receiver restarts: what it kept is still there, and resumes.
        #expect(FileManager.default.fileExists(atPath: incoming + id.uuidString + ".partial"))
        let second = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        let events = SocketFileTransferTests.FileRecorder()
        second.activate(delegate: events)
        defer { second.invalidate() }
        let again = try SocketFileTransferTests.RawPeer.connection(from: listener)
        defer { close(again.fd) }
        again.send(.fileOutstanding, SocketSession.bytes(of: id) + SocketSession.bytes(of: changed))
        again.begin(id, Self.descriptor(id, name: "resume.txt", size: 10))
        #expect(again.resumeOffset(of: id) == 5)
        #expect(!FileManager.default.fileExists(atPath: incoming + dropped.uuidString + ".partial"), "no longer listed")
        #expect(FileManager.default.fileExists(atPath: incoming + changed.uuidString + ".partial"))
        again.send(.fileChunk, SocketSession.bytes(of: id) + Array("67890".utf8))
        again.send(.fileEnd, SocketSession.bytes(of: id))
        let ack = again.receive()
        #expect(ack?.0 == .fileAck && ack.map { UUID.fromBytes(Array($0.1.prefix(16))) } == id)
        let received = await events.next { if case .received(let t, let data) = $0 { (t, data) } else { nil } }
        #expect(received?.0.id == id && received?.1 == Data("1234567890".utf8))
        #expect(!FileManager.default.fileExists(atPath: incoming + id.uuidString + ".partial"))
        #expect(!FileManager.default.fileExists(atPath: incoming + id.uuidString + ".descriptor"))

        // Hostile: a list that is not whole ids is refused naming the field; the session keeps going.
        again.send(.fileOutstanding, [1, 2, 3, 4, 5])
        again.send(.fileResume, SocketSession.bytes(of: id) + [1, 2])
        let refusal = await events.next { if case .rejected(let error) = $0 { error.details["field"] } else { nil } }
        #expect(refusal == "ids")
        again.begin(changed, Self.descriptor(changed, size: 12))
        #expect(again.resumeOffset(of: changed) == 0)

        // More files at once than the receiver takes: the extra one is deferred, not left unanswered.
        for _ in 0..<3 {
            let more = UUID()
            again.begin(more, Self.descriptor(more, size: 10))
            #expect(again.resumeOffset(of: more) == 0)
        }
        let extra = UUID()
        again.begin(extra, Self.descriptor(extra, size: 10))
        let deferred = again.receive(skipping: [.fileOutstanding])
        #expect(deferred?.0 == .fileDeferred && deferred.map { UUID.fromBytes(Array($0.1.prefix(16))) } == extra)
    }

    @Test func anInterruptedOutgoingFileIsSentAgainFromTheOffsetTheReceiverAsksFor() async throws {
        let root = SocketFileTransferTests().directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try SocketIO.listen(path: root + "/s")
        defer { close(listener) }
        var bytes = [UInt8](repeating: 0, count: 200_000)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 13 &+ i >> 9) }
        let url = URL(fileURLWithPath: root + "/big.bin")
        try Data(bytes).write(to: url)
        let phone = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        let events = SocketFileTransferTests.FileRecorder()
        phone.activate(delegate: events)
        defer { phone.invalidate() }
        let transfer = try phone.transferFile(url, metadata: [:])
        let id = SocketSession.bytes(of: transfer.id)

        func connect(first: Bool = false) throws -> SocketFileTransferTests.RawPeer {
            let peer = try SocketFileTransferTests.RawPeer.connection(from: listener)
            let outstanding = peer.receive(skipping: [])
            // NB: the first connection may predate the transfer, so its list may still be empty.
            #expect(outstanding?.0 == .fileOutstanding && (outstanding?.1 == id || first && outstanding?.1 == []))
            let begin = peer.receive(skipping: [])
            #expect(begin?.0 == .fileBegin && begin.map { Array($0.1.prefix(16)) } == id)
            return peer
        }
        // An offset no file of this size has: the sender cancels this attempt.
        let first = try connect(first: true)
        first.resume(transfer.id, at: transfer.size + 1)
        #expect(first.receive(skipping: [])?.0 == .fileCancel)
        close(first.fd)
        // The receiver cannot take it now: skipped until the next connection.
        let deferring = try connect()
        deferring.send(.fileDeferred, id)
        close(deferring.fd)
        // From zero; the connection drops after the first chunk.
        let second = try connect()
        second.resume(transfer.id, at: 0)
        let chunk = second.receive(skipping: [])
        #expect(chunk?.0 == .fileChunk && chunk.map { Array($0.1[16...]) } == Array(bytes[0..<65_536]))
        close(second.fd)
        // The receiver kept 100,000 bytes: only the rest is sent.
        let third = try connect()
        third.resume(transfer.id, at: 100_000)
        var rest: [UInt8] = []
        while let (kind, body) = third.receive(skipping: []), kind == .fileChunk {
            #expect(Array(body.prefix(16)) == id)
            rest += body[16...]
        }
        #expect(rest == Array(bytes[100_000...]))
        third.send(.fileAck, id)
        let finished = await events.next { if case .finished(let t, let error) = $0 { (t, error) } else { nil } }
        #expect(finished?.0 == transfer && finished?.1 == nil)
        #expect(phone.outstandingFileTransfers.isEmpty)
        close(third.fd)
    }

    @Test func keptPartialsAreCappedLeastRecentlyWrittenFirstAndUnpairedFilesGo() throws {
        let root = SocketFileTransferTests().directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let incoming = root + "/a/files-incoming"
        try FileManager.default.createDirectory(atPath: incoming, withIntermediateDirectories: true)
        let ids = (0..<20).map { _ in UUID() }
        for (n, id) in ids.enumerated() {
            let written = Date(timeIntervalSince1970: 1_000_000 + Double(n))
            for suffix in [".partial", ".descriptor"] {
                let path = incoming + "/" + id.uuidString + suffix
                #expect(FileManager.default.createFile(atPath: path, contents: Data("abc".utf8)))
                try FileManager.default.setAttributes([.modificationDate: written], ofItemAtPath: path)
            }
        }
        #expect(FileManager.default.createFile(atPath: incoming + "/" + UUID().uuidString + ".partial", contents: nil))
        #expect(FileManager.default.createFile(atPath: incoming + "/stray.tmp", contents: nil))
        // The oldest is in use on the connection, so it stays and is not counted; of the other 19, the three oldest go.
        SocketSession.keepOnlySuspendedPartials(in: incoming)
        SocketSession.trimSuspended(in: incoming, active: [ids[0]], room: 0)
        let left = Set(try FileManager.default.contentsOfDirectory(atPath: incoming))
        let expected = Set(([ids[0]] + ids[4...]).flatMap { [$0.uuidString + ".partial", $0.uuidString + ".descriptor"] })
        #expect(left == expected)
    }
}
