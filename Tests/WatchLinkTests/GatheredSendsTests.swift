import Foundation
import Synchronization
import Testing

@testable import WatchLink

#if canImport(Glibc)
    import Glibc
#endif

/// `sendingMessagesTogether`: the messages a thread sends in it go out in order, in one write
/// (or one per 2 KiB), and none sent later from another thread overtakes them.
@Suite struct GatheredSendsTests {
    /// A session connected to a raw peer whose opening frames were read, so only what a test sends
    /// is counted.
    static func link() throws -> WriteBatchingTests.Link {
        let link = try WriteBatchingTests.Link()
        #expect(link.readOpeningFrames())
        return link
    }

    /// The next `count` message bodies the peer reads, as text.
    static func messages(_ count: Int, from peer: SocketFileTransferTests.RawPeer) -> [String] {
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var bodies: [String] = []
        while bodies.count < count, let frame = reader.next() {
            if frame.kind == SocketSession.Kind.message.rawValue { bodies.append(String(decoding: frame.body, as: UTF8.self)) }
        }
        return bodies
    }

    static func counts(_ session: SocketSession) -> (writes: Int, flushes: Int) {
        (session.writes.load(ordering: .relaxed), session.gatheredFlushes.load(ordering: .relaxed))
    }

    @Test func messagesSentTogetherGoOutInOrderInOneWrite() throws {
        let link = try Self.link()
        defer { link.close() }
        let session = link.session
        let before = Self.counts(session)
        let failures = Mutex(0)
        let sent = (0..<20).map { "message \($0)" }
        session.sendingMessagesTogether {
            for text in sent {
                do { try session.sendMessage(Data(text.utf8)) } catch { failures.withLock { $0 += 1 } }
            }
        }
        #expect(Self.messages(sent.count, from: link.peer) == sent)
        let after = Self.counts(session)
        #expect(failures.withLock { $0 } == 0)
        // NB: sent one by one, they would take 20 writes.
        #expect(after.writes - before.writes == 1)
        #expect(after.flushes - before.flushes == 1)
        #expect(session.state.withLock { $0.gatherer == nil })
    }

    @Test func aLargeGatheringGoesOutInPiecesOfAboutTwoKiB() throws {
        let link = try Self.link()
        defer { link.close() }
        let session = link.session
        let before = Self.counts(session)
        // 30 bodies of 300 bytes (305 framed): the queue reaches 2 KiB every 7 frames.
        let sent = (0..<30).map { String(format: "%03d", $0) + String(repeating: "g", count: 297) }
        session.sendingMessagesTogether {
            for text in sent { try? session.sendMessage(Data(text.utf8)) }
        }
        #expect(Self.messages(sent.count, from: link.peer) == sent)
        let flushes = Self.counts(session).flushes - before.flushes
        // NB: four sends on reaching 2 KiB (after frames 7, 14, 21 and 28) and one at the end.
        #expect(flushes == 5, "\(flushes) sends of 30 gathered frames of 305 bytes")
    }

    @Test func aMessageSentFromAnotherThreadMeanwhileDoesNotOvertakeTheGatheredOnes() throws {
        let link = try Self.link()
        defer { link.close() }
        let session = link.session
        session.sendingMessagesTogether {
            try? session.sendMessage(Data("one".utf8))
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                try? session.sendMessage(Data("two".utf8))
                done.signal()
            }
            done.wait()
            try? session.sendMessage(Data("three".utf8))
        }
        #expect(Self.messages(3, from: link.peer) == ["one", "two", "three"])
    }

    @Test func gatheringsAmongConcurrentSendersLoseNothingAndKeepEachSendersOrder() throws {
        let link = try Self.link()
        defer { link.close() }
        let (session, peer) = (link.session, link.peer)
        let senders = 6
        let perSender = 200
        let failures = Mutex(0)
        let done = DispatchGroup()
        for sender in 0..<senders {
            done.enter()
            Thread.detachNewThread {
                @Sendable func send(_ n: Int) {
                    do { try session.sendMessage(Data(WriteBatchingTests.numberedBody(sender, n))) } catch {
                        failures.withLock { $0 += 1 }
                    }
                }
                // Even senders gather their messages in groups of 1 to 7 (only one thread gathers at
                // a time; the others' groups then go as sent), odd ones send each on its own.
                var n = 0
                while n < perSender {
                    let group = min(1 + (n + sender) % 7, perSender - n)
                    if sender.isMultiple(of: 2) {
                        session.sendingMessagesTogether { for k in n..<(n + group) { send(k) } }
                    } else {
                        for k in n..<(n + group) { send(k) }
                    }
                    n += group
                }
                done.leave()
            }
        }
        // NB: a frame left queued with nobody to send it would stop the reading at the peer's
        // 20-second receive timeout, short of every frame.
        let (received, damaged, next) = WriteBatchingTests.readNumbered(from: peer, senders: senders, perSender: perSender)
        done.wait()
        #expect(failures.withLock { $0 } == 0)
        #expect(received == senders * perSender)
        #expect(damaged == 0)
        #expect(next == [Int](repeating: perSender, count: senders))
        #expect(session.state.withLock { $0.gatherer == nil })
    }

    @Test func aMessageQueuedWhileTheLastWriteOfAGatheringWaitsIsSentWhenItEnds() throws {
        let link = try Self.link()
        defer { link.close() }
        let (session, peer) = (link.session, link.peer)
        let fd = session.state.withLock { $0.fd }
        // The socket filled with whole frames (the peer does not read yet), so the write that ends
        // the next gathering waits for room, holding the socket.
        var fillers = 0
        let filler = WriteBatchingTests.frame(Array("filler".utf8) + [UInt8](repeating: 0x66, count: 94))
        while filler.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT | MSG_NOSIGNAL)) }) == filler.count {
            fillers += 1
        }
        #expect(errno == EAGAIN || errno == EWOULDBLOCK)
        let gathered = DispatchSemaphore(value: 0)
        let queued = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            session.sendingMessagesTogether {
                try? session.sendMessage(Data("gathered".utf8))
                queued.signal()
            }
            gathered.signal()
        }
        // NB: "gathered" is queued before the socket is looked at: another thread that held it for a
        // moment (the reply writer, say) must not be taken for the gathering's write, nor the marker
        // queued ahead of the gathered message.
        #expect(queued.wait(timeout: .now() + 20) == .success)
        // NB: that thread (or the reply writer it wakes, when the socket was busy as the gathering
        // ended) holds the socket from when it starts writing until the peer reads.
        var held = false
        for _ in 0..<2_000 where !held {
            held = session.writeLock.withLockIfAvailable { _ in true } == nil
            if !held { usleep(1_000) }
        }
        #expect(held)
        // Sent meanwhile from this thread: the socket is held, so it is queued, and this thread
        // leaves it to the holder (it does not wait); the holder must send it once its write ends.
        try session.sendMessage(Data("marker".utf8))
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var bodies: [String] = []
        // NB: a marker left queued would stop this loop at the peer's 20-second receive timeout.
        while bodies.count < fillers + 2, let frame = reader.next() {
            if frame.kind == SocketSession.Kind.message.rawValue { bodies.append(String(decoding: frame.body, as: UTF8.self)) }
        }
        #expect(bodies.count == fillers + 2)
        #expect(bodies.suffix(2) == ["gathered", "marker"])
        #expect(gathered.wait(timeout: .now() + 20) == .success)
    }

    @Test func gatheringsNestAndTheOutermostSends() throws {
        let link = try Self.link()
        defer { link.close() }
        let session = link.session
        let before = Self.counts(session)
        session.sendingMessagesTogether {
            try? session.sendMessage(Data("outer".utf8))
            session.sendingMessagesTogether { try? session.sendMessage(Data("inner".utf8)) }
            try? session.sendMessage(Data("after".utf8))
        }
        #expect(Self.messages(3, from: link.peer) == ["outer", "inner", "after"])
        let after = Self.counts(session)
        #expect(after.flushes - before.flushes == 1)
        #expect(after.writes - before.writes == 1)
    }

    @Test func withoutAConnectionMessagesAreRefusedAndNothingStaysGathered() throws {
        let root = WriteBatchingTests.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // NB: nothing listens on the path, so the session never connects.
        let session = try SocketSession(socketPath: root + "/none", role: .connect, directory: root + "/a")
        session.activate(delegate: WriteBatchingTests.Answerer())
        defer { session.invalidate() }
        var refusal: WatchLinkError?
        session.sendingMessagesTogether {
            do throws(WatchLinkError) { try session.sendMessage(Data("lost".utf8)) } catch { refusal = error }
        }
        #expect(refusal?.code == .notReachable)
        #expect(session.state.withLock { $0.gatherer == nil })
        #expect(session.pendingReplies.withLock { $0.isEmpty })
    }

    struct Note: WatchFireAndForget {
        static var typeKey: WatchTypeKey { WatchTypeKey("test.gathered.note") }
        var body: String
    }

    @Test func theRequestsAGroupCommitReleasesGoOutTogether() async throws {
        let root = WriteBatchingTests.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let listener = try SocketIO.listen(path: root + "/s")
        defer { close(listener) }
        let session = try SocketSession(socketPath: root + "/s", role: .connect, directory: root + "/a")
        defer { session.invalidate() }
        let store = try FileStore(path: root + "/log")
        // NB: no re-send within the test, however long its syncs take (the raw peer never answers).
        var configuration = WatchLinkConfiguration()
        configuration.messageReplyTimeout = .seconds(600)
        let phone = WatchConnection(
            origin: .phone, session: session, store: store, clock: ContinuousClock(), configuration: configuration)
        try await phone.start()
        let peer = try SocketFileTransferTests.RawPeer.connection(from: listener)
        defer { close(peer.fd) }
        #expect(peer.receive(skipping: []).map { $0.0 } == .fileOutstanding)
        // NB: once the thread that wrote the opening frames lets go of the socket (see `Link.readOpeningFrames()`).
        session.writeLock.withLock { _ in }
        for _ in 0..<500 where !phone.status.isReachable { try await Task.sleep(for: .milliseconds(10)) }
        let before = Self.counts(session)
        // Twelve durable requests in one batch: one group, one sync, and then their twelve messages.
        let results = try await phone.post(contentsOf: (0..<12).map { Note(body: "n\($0)") }, strategy: .messageOnly)
        #expect(results.allSatisfy { if case .success = $0 { true } else { false } })
        var reader = FrameReader(fd: peer.fd, maximumLength: 1 << 20)
        var requests = 0
        while requests < 12, let frame = reader.next() {
            if frame.kind == SocketSession.Kind.message.rawValue { requests += 1 }
        }
        #expect(requests == 12)
        let after = Self.counts(session)
        #expect(after.flushes - before.flushes >= 1)
        // NB: one write each would be twelve.
        #expect(after.writes - before.writes <= 2, "\(after.writes - before.writes) writes for a group of 12 requests")
        await phone.stop()
    }
}
