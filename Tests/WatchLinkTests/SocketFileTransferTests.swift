import Foundation
import Synchronization
import Testing

@testable import WatchLink

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// File transfer over the two-process socket transport, and what it does with hostile frames.
// NB: generous: the CLI suites block cooperative threads while their processes run, which
// can stall these async tests for a while on a 2-core machine; a real hang still fails.
@Suite(.timeLimit(.minutes(5))) struct SocketFileTransferTests {
    /// A delegate that turns file callbacks into a stream a test can wait on, without sleeping.
    final class FileRecorder: WatchSessionDelegate {
        enum Event: Sendable {
            case received(FileTransfer, Data)
            case finished(FileTransfer, WatchLinkError?)
            case rejected(WatchLinkError)
        }

        let events: AsyncStream<Event>
        let continuation: AsyncStream<Event>.Continuation
        let log = Mutex<[Event]>([])

        init() { (events, continuation) = AsyncStream.makeStream(of: Event.self) }

        func record(_ event: Event) {
            log.withLock { $0.append(event) }
            continuation.yield(event)
        }

        func sessionDidActivate(_ state: SessionActivationState) {}
        func sessionReachabilityDidChange(_ isReachable: Bool) {}
        func sessionDidReceive(_ data: Data, on channel: SessionChannel) {}
        func sessionDidReceiveFile(_ file: ReceivedFile) throws(WatchLinkError) {
            // NB: the file is deleted when this returns, so read it now.
            record(.received(file.transfer, (try? Data(contentsOf: file.url)) ?? Data()))
        }
        func sessionDidFinishFileTransfer(_ transfer: FileTransfer, error: WatchLinkError?) {
            record(.finished(transfer, error))
        }
        func sessionDidRejectFile(_ error: WatchLinkError) { record(.rejected(error)) }

        /// The next event `match` accepts.
        func next<T>(_ match: (Event) -> T?) async -> T? {
            for await event in events {
                if let value = match(event) { return value }
            }
            return nil
        }
    }

    func directory() -> String {
        let path = "/tmp/wl-sfile-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path + "/a", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: path + "/b", withIntermediateDirectories: true)
        return path
    }

    @Test func aFileQueuedWhileUnreachableSurvivesARestartAndArrivesWithItsMetadata() async throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let socket = root + "/s"
        let original = try FileTransferTests.write("hello, file", named: "notes.txt", in: URL(fileURLWithPath: root))
        let transfer: FileTransfer
        do {
            let phone = try SocketSession(socketPath: socket, role: .connect, directory: root + "/a")
            #expect(throws: WatchLinkError.self) { try phone.transferFile(original, metadata: [:]) }
            phone.activate(delegate: FileRecorder())
            transfer = try phone.transferFile(original, metadata: ["kind": "notes", "day": "tuesday"])
            #expect(transfer.size == 11 && transfer.fileName == "notes.txt")
            #expect(phone.outstandingFileTransfers == [transfer])
            #expect(phone.progress(ofFileTransfer: transfer.id) == FileTransferProgress(completedBytes: 0, totalBytes: 11))
            phone.invalidate()
        }
        try FileManager.default.removeItem(at: original)

        let restarted = try SocketSession(socketPath: socket, role: .connect, directory: root + "/a")
        #expect(restarted.outstandingFileTransfers == [transfer])
        let watch = try SocketSession(socketPath: socket, role: .listen, directory: root + "/b")
        let watchEvents = FileRecorder()
        let phoneEvents = FileRecorder()
        watch.activate(delegate: watchEvents)
        restarted.activate(delegate: phoneEvents)
        let received = await watchEvents.next { if case .received(let t, let data) = $0 { (t, data) } else { nil } }
        #expect(received?.0 == transfer)
        #expect(received?.1 == Data("hello, file".utf8))
        let finished = await phoneEvents.next { if case .finished(let t, let error) = $0 { (t, error) } else { nil } }
        #expect(finished?.0 == transfer && finished?.1 == nil)
        #expect(restarted.outstandingFileTransfers.isEmpty)
        #expect(restarted.progress(ofFileTransfer: transfer.id) == nil)
        restarted.invalidate()
        watch.invalidate()
        let again = try SocketSession(socketPath: socket, role: .connect, directory: root + "/a")
        #expect(again.outstandingFileTransfers.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/files-outgoing").isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/b/files-incoming").isEmpty)
    }

    @Test func aMultiChunkFileArrivesWholeAndACancelledOneNever() async throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = URL(fileURLWithPath: root)
        let phone = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        let phoneEvents = FileRecorder()
        phone.activate(delegate: phoneEvents)
        let cancelledURL = try FileTransferTests.write("do not send", named: "cancelled.txt", in: folder)
        let cancelled = try phone.transferFile(cancelledURL, metadata: [:])
        phone.cancelFileTransfer(cancelled.id)
        let outcome = await phoneEvents.next { if case .finished(let t, let error) = $0 { (t, error) } else { nil } }
        #expect(outcome?.0 == cancelled && outcome?.1?.code == .cancelled)
        #expect(phone.outstandingFileTransfers.isEmpty)
        phone.cancelFileTransfer(cancelled.id)

        var bytes = [UInt8](repeating: 0, count: 200_000)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: i &* 31) }
        let large = folder.appendingPathComponent("large.bin")
        try Data(bytes).write(to: large)
        let transfer = try phone.transferFile(large, metadata: [:])
        let watch = try SocketSession(socketPath: root + "/s", role: .listen, directory: root + "/b")
        let watchEvents = FileRecorder()
        watch.activate(delegate: watchEvents)
        let received = await watchEvents.next { if case .received(let t, let data) = $0 { (t, data) } else { nil } }
        #expect(received?.0 == transfer)
        #expect(received?.1 == Data(bytes))
        #expect(!watchEvents.log.withLock { $0 }.contains { if case .received(cancelled, _) = $0 { true } else { false } })
        let done = await phoneEvents.next { if case .finished(let t, nil) = $0 { t } else { nil } }
        #expect(done == transfer)
        phone.invalidate()
        watch.invalidate()
    }

    @Test func largeFilesBothWaysAtOnceDoNotBlockEitherReader() async throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let folder = URL(fileURLWithPath: root)
        let phone = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        let watch = try SocketSession(socketPath: root + "/s", role: .listen, directory: root + "/b")
        let phoneEvents = FileRecorder()
        let watchEvents = FileRecorder()
        phone.activate(delegate: phoneEvents)
        watch.activate(delegate: watchEvents)
        var sent: [FileTransfer] = []
        for n in 0..<3 {
            let data = Data((0..<2_000_000).map { UInt8(truncatingIfNeeded: $0 &* (n + 7)) })
            let url = folder.appendingPathComponent("big\(n).bin")
            try data.write(to: url)
            sent.append(try phone.transferFile(url, metadata: [:]))
            sent.append(try watch.transferFile(url, metadata: [:]))
        }
        var delivered = 0
        for recorder in [phoneEvents, watchEvents] {
            for _ in 0..<3 where await recorder.next({ if case .finished(_, nil) = $0 { true } else { nil } }) == true {
                delivered += 1
            }
        }
        #expect(delivered == 6)
        let received = (phoneEvents.log.withLock { $0 } + watchEvents.log.withLock { $0 }).compactMap {
            if case .received(let transfer, let data) = $0 { (transfer, data.count) } else { nil }
        }
        #expect(Set(received.map(\.0.id)) == Set(sent.map(\.id)))
        #expect(received.allSatisfy { $0.1 == 2_000_000 })
        phone.invalidate()
        watch.invalidate()
    }

    @Test func unreadableAndOversizedFilesThrowAtTheCall() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let phone = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        phone.activate(delegate: FileRecorder())
        defer { phone.invalidate() }
        do {
            _ = try phone.transferFile(URL(fileURLWithPath: root + "/missing.txt"), metadata: [:])
            Issue.record("expected file_unreadable")
        } catch {
            #expect(error.code == .fileUnreadable && error.details["field"] == "file")
        }
        let big = URL(fileURLWithPath: root + "/big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(SessionLimits.file + 1))
        try handle.close()
        do {
            _ = try phone.transferFile(big, metadata: [:])
            Issue.record("expected payload_too_large")
        } catch {
            #expect(error.code == .payloadTooLarge && error.details["field"] == "file")
        }
        #expect(phone.outstandingFileTransfers.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/files-outgoing").isEmpty)
    }

    @Test func corruptFileQueueIsReported() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Data("{oops".utf8).write(to: URL(fileURLWithPath: root + "/a/files-queue.json"))
        do {
            _ = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
            Issue.record("expected storage_failed")
        } catch {
            #expect(error.code == .storageFailed && error.details["path"]?.hasSuffix("files-queue.json") == true)
        }
    }

    /// A queue file that is there but cannot be read (here a directory stands in its place) is
    /// `storage_failed`, not an empty queue: the queued files' copies are kept.
    @Test func aFileQueueThatCannotBeReadIsReportedAndTheQueuedCopiesKept() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let manager = FileManager.default
        try manager.createDirectory(atPath: root + "/a/files-queue.json", withIntermediateDirectories: true)
        try manager.createDirectory(atPath: root + "/a/files-outgoing", withIntermediateDirectories: true)
        let copy = root + "/a/files-outgoing/" + UUID().uuidString
        try Data("queued".utf8).write(to: URL(fileURLWithPath: copy))
        do {
            _ = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
            Issue.record("expected storage_failed")
        } catch {
            #expect(error.code == .storageFailed && error.details["path"]?.hasSuffix("files-queue.json") == true)
        }
        #expect(manager.fileExists(atPath: copy), "the queued file's copy is kept")
    }

    // MARK: Hostile frames

    /// A raw peer: the test plays the counterpart byte by byte.
    struct RawPeer {
        let fd: Int32

        func send(_ kind: SocketSession.Kind, _ body: [UInt8]) {
            #expect(trySend(kind, body))
        }

        /// Writes a frame; whether the session still took it (it may have dropped the connection).
        func trySend(_ kind: SocketSession.Kind, _ body: [UInt8]) -> Bool {
            let n = UInt32(body.count + 1)
            let frame = [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), kind.rawValue] + body
            return SocketIO.writeAll(fd, frame)
        }

        /// The next frame from the session not of a kind in `skipping` (bounded by the socket's
        /// receive timeout); by default the resume handshake and the outstanding-file list are skipped.
        func receive(skipping: Set<SocketSession.Kind> = [.fileResume, .fileOutstanding]) -> (SocketSession.Kind, [UInt8])? {
            // NB: a reader per call, with no buffer across calls: its first read may take only this
            // frame's bytes, since the session writes frame by frame and the peer reads one at a time.
            var reader = FrameReader(fd: fd, maximumLength: 1 << 24, chunk: 1)
            while true {
                guard let frame = reader.next(), let kind = SocketSession.Kind(rawValue: frame.kind) else { return nil }
                if !skipping.contains(kind) { return (kind, frame.body) }
            }
        }

        /// The offset the session asks the sender of `id` to resume from.
        func resumeOffset(of id: UUID) -> Int64? {
            guard let (kind, body) = receive(skipping: [.fileOutstanding]), kind == .fileResume, body.count == 24,
                UUID.fromBytes(Array(body[0..<16])) == id
            else { return nil }
            return Int64(bitPattern: body[16...].reduce(0) { $0 << 8 | UInt64($1) })
        }

        func resume(_ id: UUID, at offset: Int64) {
            let position = UInt64(bitPattern: offset)
            send(
                .fileResume,
                SocketSession.bytes(of: id) + (0..<8).map { UInt8(truncatingIfNeeded: position >> (56 - 8 * UInt64($0))) })
        }

        /// Accepts the session's next connection, with a 20-second receive timeout.
        static func connection(from listener: Int32) throws -> RawPeer {
            let fd = accept(listener, nil, nil)
            try #require(fd >= 0)
            var timeout = timeval(tv_sec: 20, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            return RawPeer(fd: fd)
        }

        func begin(_ id: UUID, _ descriptor: String) {
            send(.fileBegin, SocketSession.bytes(of: id) + Array(descriptor.utf8))
        }

        /// The refusal the session answers with, and the field its error names.
        func refusal(of id: UUID) -> String?? {
            guard let (kind, body) = receive(), kind == .fileRefused, body.count >= 16,
                UUID.fromBytes(Array(body[0..<16])) == id,
                let error = try? JSONDecoder().decode(WatchLinkError.self, from: Data(body[16...]))
            else { return nil }
            return .some(error.details["field"])
        }
    }

    @Test func hostileFramesAreRefusedNamingTheFieldAndNothingLandsOutsideTheSessionDirectory() throws {
        let root = directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try SocketIO.listen(path: root + "/s")
        defer { close(listener) }
        let session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        let events = FileRecorder()
        session.activate(delegate: events)
        defer { session.invalidate() }
        let fd = accept(listener, nil, nil)
        try #require(fd >= 0)
        defer { close(fd) }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let peer = RawPeer(fd: fd)
        func descriptor(_ id: UUID, name: String = "ok.txt", metadata: String = "{}", size: Int = 4) -> String {
            #"{"id": "\#(id.uuidString)", "fileName": "\#(name)", "metadata": \#(metadata), "size": \#(size)}"#
        }

        let traversal = UUID()
        peer.begin(traversal, descriptor(traversal, name: "../../escaped.txt"))
        #expect(peer.refusal(of: traversal) == "fileName")
        let absolute = UUID()
        peer.begin(absolute, descriptor(absolute, name: "/tmp/escaped.txt"))
        #expect(peer.refusal(of: absolute) == "fileName")
        let badMetadata = UUID()
        peer.begin(badMetadata, descriptor(badMetadata, metadata: #"{"n": 1}"#))
        #expect(peer.refusal(of: badMetadata) == "metadata")
        let garbage = UUID()
        peer.begin(garbage, "\u{0}\u{1}not json")
        #expect(peer.refusal(of: garbage) == "descriptor")
        let oversized = UUID()
        peer.begin(oversized, descriptor(oversized, size: Int(SessionLimits.file) + 1))
        #expect(peer.refusal(of: oversized) == "file")
        let otherID = UUID()
        peer.begin(otherID, descriptor(UUID()))
        #expect(peer.refusal(of: otherID) == "id")
        let tooLong = UUID()
        peer.begin(tooLong, descriptor(tooLong, size: 4))
        peer.send(.fileChunk, SocketSession.bytes(of: tooLong) + Array("12345".utf8))
        #expect(peer.refusal(of: tooLong) == "size")
        let tooShort = UUID()
        peer.begin(tooShort, descriptor(tooShort, size: 10))
        peer.send(.fileChunk, SocketSession.bytes(of: tooShort) + Array("1234".utf8))
        peer.send(.fileEnd, SocketSession.bytes(of: tooShort))
        #expect(peer.refusal(of: tooShort) == "size")
        peer.send(.fileBegin, [1, 2, 3])
        peer.send(.fileChunk, SocketSession.bytes(of: UUID()) + [1])
        peer.send(.fileEnd, SocketSession.bytes(of: UUID()))

        let good = UUID()
        for _ in 0..<2 {
            peer.begin(good, descriptor(good, name: "fine.txt", metadata: #"{"k": "v"}"#, size: 4))
            peer.send(.fileChunk, SocketSession.bytes(of: good) + Array("da".utf8))
            peer.send(.fileChunk, SocketSession.bytes(of: good) + Array("ta".utf8))
            peer.send(.fileEnd, SocketSession.bytes(of: good))
            let ack = peer.receive()
            #expect(ack?.0 == .fileAck && ack.map { UUID.fromBytes(Array($0.1.prefix(16))) } == good)
        }

        let log = events.log.withLock { $0 }
        let delivered = log.compactMap { if case .received(let t, let data) = $0 { (t, data) } else { nil } }
        #expect(delivered.count == 1, "a redelivery is acknowledged, not delivered again")
        #expect(delivered.first?.0.metadata == ["k": "v"] && delivered.first?.1 == Data("data".utf8))
        let rejectedFields = log.compactMap { if case .rejected(let error) = $0 { error.details["field"] } else { nil } }
        #expect(rejectedFields == ["fileName", "fileName", "metadata", "descriptor", "file", "id", "size", "size", "id"])
        #expect(!FileManager.default.fileExists(atPath: root + "/escaped.txt"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/escaped.txt"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/a/files-incoming").isEmpty)
    }
}
