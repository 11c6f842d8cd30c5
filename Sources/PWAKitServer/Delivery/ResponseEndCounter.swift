import NIOCore
import NIOHTTPTypes

/// Tells the ``BlobDeliveryHandler`` in front of the HTTP/1.1 decoder when the router has written the
/// end of a response, so that it answers a blob request itself only when no earlier response is still due.
final class ResponseEndCounter: ChannelOutboundHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    private let delivery: BlobDeliveryHandler

    init(delivery: BlobDeliveryHandler) {
        self.delivery = delivery
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        let ends = if case .end = unwrapOutboundIn(data) { true } else { false }
        context.write(data, promise: promise)
        if ends { delivery.routerResponseEnded() }
    }
}
