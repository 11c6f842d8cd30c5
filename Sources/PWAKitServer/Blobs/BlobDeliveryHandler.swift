import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1

/// Answers `GET` and `HEAD /v1/blobs/{sha256}` of a ``FileBlobStore`` in the HTTP/1.1 pipeline, without
/// a task per request, sending bodies over 64 KiB with `sendfile` (a `FileRegion`) instead of through user space.
///
/// It answers exactly as the router's blob route does (``BlobAnswer``) and only when it can answer
/// with the blob; anything else passes on to the router unchanged: other requests, missing blobs,
/// unsatisfiable ranges, `Connection: close`, and every request that arrives while the router is still
/// answering an earlier one on the connection, so pipelined responses keep their order.
final class BlobDeliveryHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let store: FileBlobStore
    private let serverName: String?
    /// Where `FileRegion` bodies are written: below the HTTP types codec, whose bodies are byte buffers.
    private var http1Context: ChannelHandlerContext?
    /// Requests passed to the router whose responses have not ended yet.
    private var routerRequestsInFlight = 0
    /// Whether the rest of a request this handler answered is still arriving (and is dropped).
    private var discardingRequest = false
    private var date = HTTPDate()

    init(store: FileBlobStore, serverName: String?) {
        self.store = store
        self.serverName = serverName
    }

    func handlerAdded(context: ChannelHandlerContext) {
        http1Context = try? context.pipeline.syncOperations.context(handlerType: HTTP1ToHTTPServerCodec.self)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let part = unwrapInboundIn(data)
        switch part {
        case .head(let request):
            if routerRequestsInFlight == 0, answer(request, context: context) {
                discardingRequest = true
                return
            }
            routerRequestsInFlight += 1
        case .body, .end:
            guard discardingRequest else { break }
            if case .end = part { discardingRequest = false }
            return
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { routerRequestsInFlight = max(0, routerRequestsInFlight - 1) }
        context.write(data, promise: promise)
    }

    /// Writes the whole response when this handler can answer `request`; `false` leaves it to the router.
    private func answer(_ request: HTTPRequest, context: ChannelHandlerContext) -> Bool {
        let prefix = "/v1/blobs/"
        guard let http1Context, request.method == .get || request.method == .head,
            let path = request.path, path.hasPrefix(prefix),
            request.headerFields[.connection].map({ !$0.lowercased().contains("close") }) ?? true
        else { return false }
        let hash = String(path.dropFirst(prefix.count))
        guard let (descriptor, size) = store.openStored(hash) else { return false }
        var keepsDescriptor = false
        defer { if !keepsDescriptor { FileBlobStore.closeDescriptor(descriptor) } }
        let status: HTTPResponse.Status
        var headers: HTTPFields
        var bytes: ByteBuffer?
        var region: FileRegion?
        switch BlobAnswer(hash: hash, size: size, request: request.headerFields) {
        case .unsatisfiable:
            return false
        case .notModified(let fields):
            (status, headers) = (.notModified, fields)
        case .content(let answered, let fields, let range):
            (status, headers) = (answered, fields)
            guard request.method == .get, let range else { break }
            if range.count <= FileBlobStore.directChunkLength {
                // NB: a small body goes out in the same write as the head (one segment); `sendfile` would need a second.
                var buffer = context.channel.allocator.buffer(capacity: range.count)
                guard (try? FileBlobStore.read(descriptor, offset: range.lowerBound, count: range.count, into: &buffer)) != nil
                else { return false }
                bytes = buffer
            } else {
                keepsDescriptor = true
                region = FileRegion(
                    fileHandle: NIOFileHandle(_deprecatedTakingOwnershipOfDescriptor: descriptor),
                    readerIndex: range.lowerBound, endIndex: range.upperBound + 1)
            }
        }
        headers[.date] = date.now()
        if let serverName { headers[.server] = serverName }
        context.write(wrapOutboundOut(.head(HTTPResponse(status: status, headerFields: headers))), promise: nil)
        guard let region else {
            if let bytes { context.write(wrapOutboundOut(.body(bytes)), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
            return true
        }
        // NB: the region goes straight to the HTTP/1.1 encoder, which passes it to the socket as it is.
        http1Context.write(NIOAny(HTTPServerResponsePart.body(.fileRegion(region))), promise: nil)
        let ended = context.eventLoop.makePromise(of: Void.self)
        ended.futureResult.whenComplete { _ in try? region.fileHandle.close() }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: ended)
        return true
    }
}

/// The `Date` header's value (RFC 9110 IMF-fixdate), formatted at most once a second.
struct HTTPDate {
    private var second = -1
    private var text = ""

    /// The current time.
    mutating func now() -> String {
        let current = Int(Date().timeIntervalSince1970)
        if current != second {
            second = current
            text = Self.format(secondsSince1970: current)
        }
        return text
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a time in seconds since 1970.
    static func format(secondsSince1970 seconds: Int) -> String {
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        let weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday.
        let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(weekdays[weekday]), \(two(day)) \(months[month - 1]) \(year) "
            + "\(two(secondOfDay / 3600)):\(two(secondOfDay / 60 % 60)):\(two(secondOfDay % 60)) GMT"
    }
}
