import Foundation
import Synchronization
import Testing

@testable import WatchLink

#if canImport(Glibc)
    import Glibc
#endif

/// How the socket session shares writes: the reader's answers to a run of messages go out
/// together, and senders on other threads join the write in progress, with every frame intact.
@Suite struct WriteBatchingTests {
    static func directory() -> String {
        let path = NSTemporaryDirectory() + "wlk-batch-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path + "/a", withIntermediateDirectories: true)
        return path
    }

    /// Answers every message from within the callback, on the reading thread, with its bytes reversed.
    final class Answerer: WatchSessionDelegate, @unchecked Sendable {
        var session: SocketSession?
        let failures = Mutex(0)

        func sessionDidActivate(_ state: SessionActivationState) {}
        func sessionReachabilityDidChange(_ isReachable: Bool) {}
        func sessionDidReceive(_ data: Data, on channel: SessionChannel) {
            do { try session?.sendMessage(Data(data.reversed())) } catch { failures.withLock { $0 += 1 } }
        }
    }

    static func frame(_ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count + 1)
        return [
            UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), SocketSession.Kind.message.rawValue,
        ]
            + body
    }

    /// A session connected (and reachable) to a raw peer, in a directory of its own, its delegate
    /// an ``Answerer`` unless `delegate` makes another; ``close()`` removes it all.
    final class Link {
        let session: SocketSession
        let peer: SocketFileTransferTests.RawPeer
        let answerer = Answerer()
        private let listener: Int32
        private let root = WriteBatchingTests.directory()

        init(delegate: ((SocketSession) -> any WatchSessionDelegate)? = nil) throws {
            listener = try SocketIO.listen(path: root + "/s")
            session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
            answerer.session = session
            session.activate(delegate: delegate?(session) ?? answerer)
            peer = try SocketFileTransferTests.RawPeer.connection(from: listener)
            for _ in 0..<500 where !session.isReachable { usleep(10_000) }
        }

        /// Reads the session's opening frames, then waits until the thread that wrote them lets go
        /// of the socket, so the writes a test counts next are its own; whether the last was the
        /// list of outstanding files.
        ///
        /// NB: the peer can read that list before its writer leaves the write lock. Under load, a
        /// test gathering at once found the socket held at each of its five flushes.
        func readOpeningFrames() -> Bool {
            let last = peer.receive(skipping: []).map { $0.0 }
            session.writeLock.withLock { _ in }
            return last == .fileOutstanding
        }

        func close() {
            session.invalidate()
            Glibc.close(peer.fd)
            Glibc.close(listener)
            try? FileManager.default.removeItem(atPath: root)
        }
    }

    /// Sends `questions` to a fresh link's session in one write, once its opening frames are out,
    /// and reads back its answers; returns them and the writes the session made for them.
    func answers(to questions: [[UInt8]]) throws -> (answers: [[UInt8]], writes: Int, failures: Int) {
        let (answers, writes, _, failures) = try answersAndFlushes(to: questions)
        return (answers, writes, failures)
    }

    /// ``answers(to:)``, with the times the reader sent on what it queued (``SocketSession/readerFlushes``).
    func answersAndFlushes(to questions: [[UInt8]]) throws -> (
        answers: [[UInt8]], writes: Int, flushes: Int, failures: Int
    ) {
        let link = try Link()
        defer { link.close() }
        let (session, answerer, peer) = (link.session, link.answerer, link.peer)
        // NB: once the connection's opening frames are written, so only the answers are counted.
        #expect(link.readOpeningFrames())
        let before = session.writes.load(ordering: .relaxed)
        let flushesBefore = session.readerFlushes.load(ordering: .relaxed)
        #expect(SocketIO.writeAll(peer.fd, questions.flatMap(Self.frame)))
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var answers: [[UInt8]] = []
        while answers.count < questions.count, let frame = reader.next() {
            if frame.kind == SocketSession.Kind.message.rawValue { answers.append(frame.body) }
        }
        return (
            answers, session.writes.load(ordering: .relaxed) - before,
            session.readerFlushes.load(ordering: .relaxed) - flushesBefore, answerer.failures.withLock { $0 }
        )
    }

    @Test func theAnswersToMessagesThatArrivedTogetherGoOutInOneWrite() throws {
        // One write of 100 frames: the session reads them in a read or two.
        let questions = (0..<100).map { Array("question \($0)".utf8) }
        let (answers, writes, failures) = try answers(to: questions)
        #expect(answers == questions.map { $0.reversed() })
        #expect(failures == 0)
        // NB: at most a write per read of the questions; one write per answer would be 100.
        #expect(writes <= 10, "\(writes) writes for 100 answers")
    }

    @Test func aLongRunsAnswersGoOutInPiecesOfAboutTwoKiB() throws {
        let questions = (0..<100).map { Array(String(format: "%03d", $0).utf8) + [UInt8](repeating: 0x71, count: 197) }
        let (answers, writes, flushes, failures) = try answersAndFlushes(to: questions)
        #expect(answers == questions.map { $0.reversed() })
        #expect(failures == 0)
        // NB: 100 answers of 205 bytes framed (21,000 bytes): the reader sends its queue on once
        // 2 KiB is queued and at the end of each run, so it never holds more than 2 KiB and a frame
        // (2,258 bytes) between two sends, and sends at least 10 times however the questions are
        // split into reads, where holding each run whole would be once per read (1 or 2). The
        // writes themselves may be fewer: while another writer holds the socket, the reply writer
        // sends what the reader queued and may join pieces (a run of the whole suite on a loaded
        // machine once counted 4 writes).
        #expect(flushes >= 10, "\(flushes) sends for 100 answers of 205 bytes")
        #expect(writes >= 1 && writes <= 40, "\(writes) writes for 100 answers of 205 bytes")
    }

    @Test func aFrameOnlyPartlyArrivedDoesNotHoldBackTheAnswersBeforeIt() throws {
        let link = try Link()
        defer { link.close() }
        let peer = link.peer
        let second = Self.frame(Array("second".utf8))
        // The first frame whole and three bytes of the second: the reader then waits to read,
        // and the first answer must have gone out before it does (bounded by the receive timeout).
        #expect(SocketIO.writeAll(peer.fd, Self.frame(Array("first".utf8)) + second.prefix(3)))
        let first = peer.receive()
        #expect(first.map { $0.1 } == Array("tsrif".utf8))
        #expect(SocketIO.writeAll(peer.fd, Array(second.dropFirst(3))))
        #expect(peer.receive().map { $0.1 } == Array("dnoces".utf8))
    }

    /// A message body naming its sender and number, its length and filling following from them,
    /// so a frame cut, interleaved with another or sent twice shows.
    static func numberedBody(_ sender: Int, _ n: Int) -> [UInt8] {
        [UInt8(sender), UInt8(n >> 8), UInt8(n & 0xFF)]
            + [UInt8](repeating: UInt8((sender * 31 + n) & 0xFF), count: (n * 37 + sender) % 3_000)
    }

    /// Reads `senders × perSender` numbered messages (``numberedBody(_:_:)``) from `peer`, or
    /// until its receive timeout: how many arrived, how many were damaged or out of their
    /// sender's order, and the number each sender's next message would carry.
    static func readNumbered(
        from peer: SocketFileTransferTests.RawPeer, senders: Int, perSender: Int
    ) -> (received: Int, damaged: Int, next: [Int]) {
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var next = [Int](repeating: 0, count: senders)
        var received = 0
        var damaged = 0
        while received < senders * perSender, let frame = reader.next() {
            guard frame.kind == SocketSession.Kind.message.rawValue else { continue }
            received += 1
            guard frame.body.count >= 3, Int(frame.body[0]) < senders else {
                damaged += 1
                continue
            }
            let sender = Int(frame.body[0])
            let n = Int(frame.body[1]) << 8 | Int(frame.body[2])
            if frame.body != numberedBody(sender, n) || n != next[sender] { damaged += 1 }
            next[sender] = n + 1
        }
        return (received, damaged, next)
    }

    @Test func concurrentSendersShareWritesAndEveryFrameArrivesWhole() throws {
        let link = try Link()
        defer { link.close() }
        let (session, peer) = (link.session, link.peer)
        let senders = 8
        let perSender = 300
        let failures = Mutex(0)
        let done = DispatchGroup()
        for sender in 0..<senders {
            done.enter()
            Thread.detachNewThread {
                for n in 0..<perSender {
                    do { try session.sendMessage(Data(Self.numberedBody(sender, n))) } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
                done.leave()
            }
        }
        let (received, damaged, next) = Self.readNumbered(from: peer, senders: senders, perSender: perSender)
        done.wait()
        #expect(failures.withLock { $0 } == 0)
        #expect(received == senders * perSender)
        #expect(damaged == 0)
        #expect(next == [Int](repeating: perSender, count: senders))
    }

    /// Sends, from within the callback for "first", an answer and then, from another thread while
    /// the callback waits, a second message.
    final class Interleaver: WatchSessionDelegate, @unchecked Sendable {
        var session: SocketSession?

        func sessionDidActivate(_ state: SessionActivationState) {}
        func sessionReachabilityDidChange(_ isReachable: Bool) {}
        func sessionDidReceive(_ data: Data, on channel: SessionChannel) {
            guard let session, data == Data("first".utf8) else { return }
            try? session.sendMessage(Data("answer".utf8))
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                try? session.sendMessage(Data("later".utf8))
                done.signal()
            }
            done.wait()
        }
    }

    @Test func aMessageAnotherThreadSendsLaterDoesNotOvertakeTheReadersAnswer() throws {
        let link = try Link { session in
            let interleaver = Interleaver()
            interleaver.session = session
            return interleaver
        }
        defer { link.close() }
        let peer = link.peer
        peer.send(.message, Array("first".utf8))
        // The answer waits in the reader's batch while "later" is written: it must go out first
        // (the message channel is ordered).
        #expect(peer.receive().map { $0.1 } == Array("answer".utf8))
        #expect(peer.receive().map { $0.1 } == Array("later".utf8))
    }

    @Test func aFrameOfAKindThisVersionDoesNotKnowDoesNotHoldBackTheAnswersBeforeIt() throws {
        let link = try Link()
        defer { link.close() }
        let peer = link.peer
        // A question, then a frame of kind 200 (a later version's), in one write: the reader skips
        // the second and then waits to read; the answer must have gone out before it does.
        #expect(SocketIO.writeAll(peer.fd, Self.frame(Array("question".utf8)) + [0, 0, 0, 3, 200, 1, 2]))
        #expect(peer.receive().map { $0.1 } == Array("noitseuq".utf8))
    }

    @Test func sendersWaitingForTheSocketShareOneWrite() throws {
        let link = try Link()
        defer { link.close() }
        let (session, peer) = (link.session, link.peer)
        let senders = 8
        let perSender = 50
        let before = session.writes.load(ordering: .relaxed)
        // While this thread holds the socket, every sender queues its messages and returns.
        let done = DispatchGroup()
        session.writeLock.withLock { _ in
            for sender in 0..<senders {
                done.enter()
                Thread.detachNewThread {
                    for n in 0..<perSender { try? session.sendMessage(Data([UInt8(sender), UInt8(n)])) }
                    done.leave()
                }
            }
            #expect(done.wait(timeout: .now() + 20) == .success)
        }
        // A writer sends the queue once it has the socket (as every writer does after its own frame).
        session.flushReplies()
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var next = [Int](repeating: 0, count: senders)
        var received = 0
        while received < senders * perSender, let frame = reader.next() {
            guard frame.kind == SocketSession.Kind.message.rawValue, frame.body.count == 2 else { continue }
            received += 1
            let sender = Int(frame.body[0])
            #expect(Int(frame.body[1]) == next[sender])
            next[sender] += 1
        }
        #expect(received == senders * perSender)
        let writes = session.writes.load(ordering: .relaxed) - before
        #expect(writes <= 2, "\(writes) writes for \(senders * perSender) messages")
    }

    @Test func sendersOtherThanTheReaderLeaveTheReaderRoomToQueue() throws {
        let link = try Link()
        defer { link.close() }
        let (session, answerer, peer) = (link.session, link.answerer, link.peer)
        let chunk = Data(repeating: 0x33, count: 16_384)
        let sent = Mutex(0)
        let queuedMost = Mutex(0)
        let finished = DispatchSemaphore(value: 0)
        // This thread holds the socket while a sender tries to queue 2 MiB: past the shared bound
        // it waits instead. The reader then still queues its answer, and keeps the connection.
        session.writeLock.withLock { _ in
            Thread.detachNewThread {
                for _ in 0..<128 {
                    try? session.sendMessage(chunk)
                    sent.withLock { $0 += 1 }
                }
                finished.signal()
            }
            for _ in 0..<2_000 {
                queuedMost.withLock { $0 = max($0, session.pendingReplies.withLock { $0.bytes }) }
                if session.pendingReplies.withLock({ $0.bytes }) + chunk.count + 5 > SocketSession.maximumSharedBytes { break }
                usleep(1_000)
            }
            usleep(20_000)
            queuedMost.withLock { $0 = max($0, session.pendingReplies.withLock { $0.bytes }) }
            #expect(sent.withLock { $0 } < 128)
            #expect(SocketIO.writeAll(peer.fd, Self.frame(Array("still here?".utf8))))
            for _ in 0..<2_000 where session.pendingReplies.withLock({ $0.bytes }) <= queuedMost.withLock({ $0 }) {
                usleep(1_000)
            }
            #expect(session.isReachable)
        }
        session.flushReplies()
        // Everything arrives once the socket is free: the 128 chunks and the answer.
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var chunks = 0
        var answered = false
        while chunks < 128 || !answered, let frame = reader.next() {
            guard frame.kind == SocketSession.Kind.message.rawValue else { continue }
            if frame.body == Array(chunk) { chunks += 1 } else if frame.body == Array("?ereh llits".utf8) { answered = true }
        }
        finished.wait()
        #expect(queuedMost.withLock { $0 } <= SocketSession.maximumSharedBytes + "?ereh llits".utf8.count + 5)
        #expect(chunks == 128)
        #expect(answered)
        #expect(answerer.failures.withLock { $0 } == 0)
    }
}
