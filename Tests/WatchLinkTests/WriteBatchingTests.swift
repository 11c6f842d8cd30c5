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

    /// A session answering from its callbacks, connected to a raw peer.
    static func answering(_ root: String) throws -> (SocketSession, Answerer, SocketFileTransferTests.RawPeer, Int32) {
        let listener = try SocketIO.listen(path: root + "/s")
        let session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        let answerer = Answerer()
        answerer.session = session
        session.activate(delegate: answerer)
        let peer = try SocketFileTransferTests.RawPeer.connection(from: listener)
        return (session, answerer, peer, listener)
    }

    @Test func theAnswersToMessagesThatArrivedTogetherGoOutInOneWrite() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (session, answerer, peer, listener) = try Self.answering(root)
        defer {
            session.invalidate()
            close(peer.fd)
            close(listener)
        }
        let questions = (0..<100).map { Array("question \($0)".utf8) }
        let before = session.writes.load(ordering: .relaxed)
        // One write of 100 frames: the session reads them in a read or two.
        #expect(SocketIO.writeAll(peer.fd, questions.flatMap(Self.frame)))
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var answers: [[UInt8]] = []
        while answers.count < questions.count, let frame = reader.next() {
            if frame.kind == SocketSession.Kind.message.rawValue { answers.append(frame.body) }
        }
        #expect(answers == questions.map { $0.reversed() })
        #expect(answerer.failures.withLock { $0 } == 0)
        // NB: at most a write per read of the questions, plus the connection's own opening frames;
        // one write per answer would be 100.
        let writes = session.writes.load(ordering: .relaxed) - before
        #expect(writes <= 10, "\(writes) writes for 100 answers")
    }

    @Test func aFrameOnlyPartlyArrivedDoesNotHoldBackTheAnswersBeforeIt() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (session, _, peer, listener) = try Self.answering(root)
        defer {
            session.invalidate()
            close(peer.fd)
            close(listener)
        }
        let second = Self.frame(Array("second".utf8))
        // The first frame whole and three bytes of the second: the reader then waits to read,
        // and the first answer must have gone out before it does (bounded by the receive timeout).
        #expect(SocketIO.writeAll(peer.fd, Self.frame(Array("first".utf8)) + second.prefix(3)))
        let first = peer.receive()
        #expect(first.map { $0.1 } == Array("tsrif".utf8))
        #expect(SocketIO.writeAll(peer.fd, Array(second.dropFirst(3))))
        #expect(peer.receive().map { $0.1 } == Array("dnoces".utf8))
    }

    @Test func concurrentSendersShareWritesAndEveryFrameArrivesWhole() throws {
        let root = Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try SocketIO.listen(path: root + "/s")
        defer { close(listener) }
        let session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        session.activate(delegate: Answerer())
        defer { session.invalidate() }
        let peer = try SocketFileTransferTests.RawPeer.connection(from: listener)
        defer { close(peer.fd) }
        for _ in 0..<500 where !session.isReachable { usleep(10_000) }
        let senders = 8
        let perSender = 300
        // Each body names its sender and number, and its length and filling follow from them, so
        // a frame cut or interleaved with another shows.
        @Sendable func body(_ sender: Int, _ n: Int) -> [UInt8] {
            [UInt8(sender), UInt8(n >> 8), UInt8(n & 0xFF)]
                + [UInt8](repeating: UInt8((sender * 31 + n) & 0xFF), count: (n * 37 + sender) % 3_000)
        }
        let failures = Mutex(0)
        let done = DispatchGroup()
        for sender in 0..<senders {
            done.enter()
            Thread.detachNewThread {
                for n in 0..<perSender {
                    do { try session.sendMessage(Data(body(sender, n))) } catch { failures.withLock { $0 += 1 } }
                }
                done.leave()
            }
        }
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
            if frame.body != body(sender, n) || n != next[sender] { damaged += 1 }
            next[sender] = n + 1
        }
        done.wait()
        #expect(failures.withLock { $0 } == 0)
        #expect(received == senders * perSender)
        #expect(damaged == 0)
        #expect(next == [Int](repeating: perSender, count: senders))
    }
}
