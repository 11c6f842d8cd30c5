import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The connection's life: connect or accept, read frames, hand them to their handlers, and resend
/// what is queued on every new connection.
extension SocketSession {
    /// The background loop: connect or accept, exchange frames, repeat after a disconnect.
    func run() {
        var listener: Int32 = -1
        if role == .listen {
            do { listener = try SocketIO.listen(path: socketPath) } catch { return }
            let fd = listener
            state.withLock { $0.listener = fd }
        }
        defer { if listener >= 0 { close(listener) } }
        while !state.withLock({ $0.stopped }) {
            let fd: Int32
            if role == .listen {
                let accepted = accept(listener, nil, nil)
                guard accepted >= 0 else {
                    if errno != EINTR { usleep(10_000) }
                    continue
                }
                fd = accepted
            } else {
                guard let connected = SocketIO.connect(path: socketPath) else {
                    usleep(20_000)
                    continue
                }
                fd = connected
            }
            serve(fd)
        }
    }

    /// One connection: its reader runs here from the start, while another thread resends what is
    /// queued and then streams files, and a third sends control frames.
    ///
    /// NB: reading begins before anything is resent. With the resend first, two sides with long
    /// queues could each block writing while the other was not yet reading.
    func serve(_ fd: Int32) {
        SocketIO.setSendTimeout(fd, stallTimeout)
        let generation = writeLock.withLock { _ in
            state.withLock { state -> UInt64 in
                state.fd = fd
                state.generation += 1
                state.userInfoSent = 0
                state.resumeOffsets.removeAll()
                state.reader = pthread_self()
                return state.generation
            }
        }
        let sender = Thread { [self] in
            self.resend(generation: generation)
            self.sendFiles(generation: generation)
        }
        sender.name = "watchlink-files"
        sender.start()
        let replier = Thread { [self] in self.sendReplies(generation: generation) }
        replier.name = "watchlink-replies"
        replier.start()
        callback { $0.sessionReachabilityDidChange(true) }
        var reader = FrameReader(fd: fd, maximumLength: SessionLimits.applicationContext + 16)
        // NB: a message's body becomes the `Data` the delegate gets straight from the read buffer;
        // a kind a later version added is skipped, not a reason to drop the connection.
        while let frame = reader.next(Self.received) {
            // NB: the messages sent while handling a run of message frames that had all arrived
            // (the answers of inline handlers) go out together when the run ends: before a frame
            // of another kind is handled (or skipped), and before the reader waits to read.
            switch frame {
            case .message(let data):
                state.withLock { $0.readerBatching = true }
                receiveMessage(data)
            case .other(let kind, let body):
                endReaderBatch()
                handle(kind, body, from: fd, moreToRead: reader.hasBuffered)
            case .unknown:
                endReaderBatch()
            }
            if !reader.hasWholeFrame { endReaderBatch() }
        }
        writeLock.withLock { _ in
            state.withLock {
                $0.fd = -1
                $0.reader = nil
                $0.readerBatching = false
            }
            pendingReplies.withLock { $0.removeAll() }
        }
        saveAcknowledged()
        wakeFileSender()
        wakeReplyWriter()
        suspendAllIncoming()
        close(fd)
        callback { $0.sessionReachabilityDidChange(false) }
    }

    /// Sends, on a new connection, the queued user info, the last context and the list of files
    /// still to send (which precedes every `fileBegin` on the connection: the same thread sends both).
    func resend(generation: UInt64) {
        flushUserInfo()
        writeLock.withLock { _ in
            // NB: the context is read under the write lock, so a newer one sent meanwhile goes out after it.
            let (fd, current, context, files) = state.withLock { ($0.fd, $0.generation, $0.sentContext, $0.files.items) }
            guard fd >= 0, current == generation else { return }
            sendPendingReplies()
            var frames: [[UInt8]] = []
            if let context { frames.append(Self.frame(.context, [UInt8](context))) }
            // NB: a list cut short would make the receiver drop partials of files not listed; send none then.
            if files.count <= Self.maximumOutstandingListed {
                frames.append(Self.frame(.fileOutstanding, files.flatMap { Self.bytes(of: $0.id) }))
            }
            for frame in frames where !SocketIO.writeAll(fd, frame) {
                shutdown(fd, Int32(SHUT_RDWR))
                return
            }
        }
        flushReplies()
    }

    /// A frame as the reader hands it on.
    enum ReceivedFrame {
        /// A live message, its body already the `Data` the delegate gets.
        case message(Data)
        /// A frame of another kind, and its body.
        case other(Kind, [UInt8])
        /// A kind this version does not know.
        case unknown
    }

    /// Makes a ``ReceivedFrame`` from a frame's kind and its body, read in place.
    static func received(_ kind: UInt8, _ body: UnsafeRawBufferPointer) -> ReceivedFrame {
        switch Kind(rawValue: kind) {
        case .message?: .message(Data(body))
        case let kind?: .other(kind, Array(body))
        case nil: .unknown
        }
    }

    /// Hands a live message to the delegate.
    func receiveMessage(_ data: Data) {
        callback { $0.sessionDidReceive(data, on: .message) }
    }

    /// Handles one frame; `moreToRead` says whether more of the connection's input is already
    /// buffered. (``serve(_:)`` hands a message on itself, made from the read buffer without this array.)
    func handle(_ kind: Kind, _ body: [UInt8], from fd: Int32, moreToRead: Bool) {
        switch kind {
        case .message:
            receiveMessage(Data(body))
        case .userInfo:
            receiveUserInfo(body)
        case .userInfoAck:
            receiveAcknowledgement(body, from: fd, moreToRead: moreToRead)
        case .context:
            let data = Data(body)
            try? SocketIO.writeAtomically(data, to: directory + "/context-received")
            state.withLock { $0.receivedContext = data }
            callback { $0.sessionDidReceive(data, on: .applicationContext) }
        case .fileBegin, .fileChunk, .fileEnd, .fileAck, .fileCancel, .fileRefused, .fileResume, .fileDeferred:
            handleFile(kind, body)
        case .fileOutstanding:
            pruneSuspended(keeping: body)
        }
    }
}
