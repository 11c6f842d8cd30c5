import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// Answers bodiless HTTP/1.1 `GET` and `HEAD` requests of `/v1/blobs/{sha256}` in front of NIO's HTTP/1.1
/// decoder, from a ``BlobCache``: precomputed heads, bodies from memory or with `sendfile`, no task and no
/// HTTP types per request.
///
/// It answers exactly as the router's blob route does (``BlobAnswer``), and only when it can answer with
/// the blob. Everything else reaches the decoder unchanged and in order (``RequestFramer``): other
/// requests, missing blobs, unsatisfiable ranges, `Connection: close`, and every request that arrives
/// while the router is still answering an earlier one on the connection, so pipelined responses keep
/// their order. On graceful shutdown it answers nothing more itself and holds the quiesce event back from
/// the connection-state handler until its own responses have been written, so none is cut short.
///
/// Backpressure: it acts on buffered requests only while the channel is writable and fewer than
/// ``maximumRouterRequests`` passed-on requests await their responses, and holds the channel's reads
/// meanwhile; a client that pipelines requests and never reads its answers therefore costs at most
/// one read's worth of requests and the channel's write buffer, not memory without bound.
final class BlobDeliveryHandler: ChannelDuplexHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    /// Passed-on requests awaiting their responses beyond which nothing more is read or passed on.
    static let maximumRouterRequests = 32

    /// How long, in seconds, a request head may take to arrive once it has started (slowloris), and a
    /// connection may sit with nothing to do (no request in progress, nothing left to write).
    struct Timeouts: Sendable {
        var head = 20
        var idle = 75
        /// A request body passed to the router gets this many seconds, plus one for every
        /// ``bodyMinimumRate`` bytes that arrive (Apache's `mod_reqtimeout` `body=20,MinRate=500`): a client
        /// that dribbles its body slower than that is closed.
        var body = 20
        var bodyMinimumRate = 500
    }

    /// Bodies up to this size go out in the same buffer as the head; larger ones as a second buffer.
    static let copiedBodyLimit = 16 * 1024

    private let cache: BlobCache
    private let now: @Sendable () -> Int
    private var framer = RequestFramer()
    private var tail: ResponseHeadTail
    /// Requests passed on to the router whose responses have not ended yet.
    private var routerResponsesPending = 0
    private var quiescing = false
    private var unflushed = false
    /// Whether `TCP_CORK` is on until the next flush.
    private var corked = false
    /// Buffered requests wait: the channel is not writable or the router has enough to do.
    private var paused = false
    /// A read was asked for while paused; it goes out when the pause ends.
    private var readHeld = false
    private var context: ChannelHandlerContext?
    private let timeouts: Timeouts
    private let accessLog: AccessLog?
    /// Seconds the current head has been arriving, and the connection idle: counted by a one-second watchdog.
    private var headSeconds = 0
    private var idleSeconds = 0
    /// Seconds left for the body being received, and bytes received towards the next extra second.
    private var bodySecondsLeft = 0
    private var bodyBytesTowardsCredit = 0
    private var watchdog: RepeatedTask?

    /// `now` gives seconds since 1970, for the `Date` header and the cache's revalidation.
    init(
        cache: BlobCache, serverName: String?, now: @escaping @Sendable () -> Int, timeouts: Timeouts = Timeouts(),
        accessLog: AccessLog? = nil
    ) {
        self.accessLog = accessLog
        self.cache = cache
        self.now = now
        self.timeouts = timeouts
        self.tail = ResponseHeadTail(serverName: serverName)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        watchdog = context.eventLoop.scheduleRepeatedTask(initialDelay: .seconds(1), delay: .seconds(1)) { _ in
            handler.value.tick()
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        watchdog?.cancel()
        watchdog = nil
        self.context = nil
    }

    func channelInactive(context: ChannelHandlerContext) {
        watchdog?.cancel()
        watchdog = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        idleSeconds = 0
        framer.append(unwrapInboundIn(data))
        drain(context: context)
    }

    /// One second passed: a head that has been arriving for too long, or a connection idle for too long,
    /// is closed. A connection waiting on the server (paused, a router response due, bytes still to
    /// write) is neither.
    private func tick() {
        guard let context, context.channel.isActive else { return }
        if framer.awaitsBody, !paused, context.channel.isWritable {
            // NB: reads are not held, so the client is the one not sending.
            bodySecondsLeft -= 1
            if bodySecondsLeft <= 0 { context.close(promise: nil) }
            return
        }
        let waitingOnServer = paused || routerResponsesPending > 0 || !context.channel.isWritable
        if framer.holdsPartialHead, !waitingOnServer {
            headSeconds += 1
            if headSeconds >= timeouts.head { context.close(promise: nil) }
            return
        }
        if waitingOnServer || framer.holdsPartialHead {
            idleSeconds = 0
            return
        }
        idleSeconds += 1
        if idleSeconds >= timeouts.idle { context.close(promise: nil) }
    }

    /// Acts on buffered requests while the channel can take their answers.
    private func drain(context: ChannelHandlerContext) {
        while true {
            guard context.channel.isWritable, routerResponsesPending < Self.maximumRouterRequests else {
                paused = true
                // NB: what is written but not flushed counts against writability; send it, or nothing drains.
                flushIfNeeded(context: context)
                return
            }
            guard let action = framer.next() else { break }
            if case .bytes = action {} else { headSeconds = 0 }
            switch action {
            case .blob(let request, let head):
                if routerResponsesPending == 0, !quiescing, answer(request, context: context) { continue }
                passOn(head, context: context)
            case .request(let head):
                bodySecondsLeft = timeouts.body
                bodyBytesTowardsCredit = 0
                passOn(head, context: context)
            case .bytes(let bytes):
                bodyBytesTowardsCredit += bytes.readableBytes
                if bodyBytesTowardsCredit >= timeouts.bodyMinimumRate {
                    bodySecondsLeft += bodyBytesTowardsCredit / timeouts.bodyMinimumRate
                    bodyBytesTowardsCredit %= timeouts.bodyMinimumRate
                }
                context.fireChannelRead(wrapInboundOut(bytes))
            }
        }
        paused = false
    }

    /// Goes on where the pause stopped, then lets the held read out.
    private func resume(context: ChannelHandlerContext) {
        guard paused else { return }
        drain(context: context)
        flushIfNeeded(context: context)
        if !paused, readHeld {
            readHeld = false
            context.read()
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded(context: context)
        context.fireChannelReadComplete()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { resume(context: context) }
        context.fireChannelWritabilityChanged()
    }

    func read(context: ChannelHandlerContext) {
        if paused {
            readHeld = true
        } else {
            context.read()
        }
    }

    private func flushIfNeeded(context: ChannelHandlerContext) {
        guard unflushed else { return }
        unflushed = false
        context.flush()
        if corked { corked = !setCork(false, context: context) }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is ChannelShouldQuiesceEvent, !quiescing else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        quiescing = true
        // NB: the connection-state handler closes the connection at once when the router has no response
        // in progress, which would cut short a body still being sent from here. An empty write completes
        // only after every write before it, so the event moves on once those are on the wire.
        let written = context.eventLoop.makePromise(of: Void.self)
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(ByteBuffer())), promise: written)
        written.futureResult.assumeIsolated().whenComplete { _ in context.fireUserInboundEventTriggered(event) }
    }

    /// The router has written the end of a response (reported by ``ResponseEndCounter``).
    func routerResponseEnded() {
        if routerResponsesPending > 0 { routerResponsesPending -= 1 }
        if let context, paused, routerResponsesPending < Self.maximumRouterRequests { resume(context: context) }
    }

    /// Turns `TCP_CORK` on or off (Linux only); whether it was set.
    private func setCork(_ on: Bool, context: ChannelHandlerContext) -> Bool {
        #if canImport(Glibc)
            let option = ChannelOptions.tcpOption(NIOBSDSocket.Option(rawValue: CInt(TCP_CORK)))
            return (try? context.channel.syncOptions?.setOption(option, value: on ? 1 : 0)) != nil
        #else
            return false
        #endif
    }

    private func passOn(_ head: ByteBuffer, context: ChannelHandlerContext) {
        routerResponsesPending += 1
        context.fireChannelRead(wrapInboundOut(head))
    }

    /// Writes the whole response when the blob can answer `request`; `false` leaves it to the router.
    private func answer(_ request: BlobRequest, context: ChannelHandlerContext) -> Bool {
        let second = now()
        guard let blob = cache.blob(request.key, now: second) else { return false }
        let answer = BlobAnswer(
            hash: blob.hash, size: blob.size, ifNoneMatch: request.ifNoneMatch, range: request.range, ifRange: request.ifRange)
        let prefix: ByteBuffer
        switch answer {
        case .unsatisfiable: return false
        case .whole: prefix = blob.wholeHead
        case .notModified: prefix = blob.notModifiedHead
        case .partial: prefix = BlobResponseHead.make(answer, hash: blob.hash, size: blob.size)
        }
        let tailBytes = tail.bytes(at: second)
        let range = request.method == .get ? answer.bodyRange(size: blob.size) : nil
        if let accessLog {
            let status =
                switch answer {
                case .notModified: 304
                case .partial: 206
                default: 200
                }
            accessLog.record(
                address: context.channel.remoteAddress?.ipAddress, method: request.method == .get ? "GET" : "HEAD",
                target: "/v1/blobs/\(blob.hash)", status: status, bytes: range?.count ?? 0, at: second)
        }
        let copied = range.map { $0.count <= Self.copiedBodyLimit && !blob.holdsDescriptor } ?? false
        var head = context.channel.allocator.buffer(
            capacity: prefix.readableBytes + tailBytes.readableBytes + (copied ? range?.count ?? 0 : 0))
        head.writeImmutableBuffer(prefix)
        head.writeImmutableBuffer(tailBytes)
        unflushed = true
        guard let range else {
            context.write(wrapOutboundOut(.byteBuffer(head)), promise: nil)
            return true
        }
        switch blob.body {
        case .bytes(let bytes):
            let body = bytes.getSlice(at: bytes.readerIndex + range.lowerBound, length: range.count)!
            if copied {
                head.writeImmutableBuffer(body)
                context.write(wrapOutboundOut(.byteBuffer(head)), promise: nil)
            } else {
                context.write(wrapOutboundOut(.byteBuffer(head)), promise: nil)
                context.write(wrapOutboundOut(.byteBuffer(body)), promise: nil)
            }
        case .file(let handle):
            // NB: as nginx's `tcp_nopush`: the head leaves with the start of the body, not in a segment of its own.
            if !corked { corked = setCork(true, context: context) }
            context.write(wrapOutboundOut(.byteBuffer(head)), promise: nil)
            let region = FileRegion(fileHandle: handle, readerIndex: range.lowerBound, endIndex: range.upperBound + 1)
            let written = context.eventLoop.makePromise(of: Void.self)
            // NB: the descriptor must stay open until `sendfile` is done, even if the cache drops the blob meanwhile.
            written.futureResult.whenComplete { _ in withExtendedLifetime(blob) {} }
            context.write(wrapOutboundOut(.fileRegion(region)), promise: written)
        }
        return true
    }
}
