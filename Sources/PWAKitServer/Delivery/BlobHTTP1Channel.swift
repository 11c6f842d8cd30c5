import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import Synchronization

/// Hummingbird's HTTP/1.1 child channel with a ``BlobDeliveryHandler`` in front of the decoder.
///
/// The pipeline is the one `HTTP1Channel` builds (decoder, encoder, HTTP types codec, connection state
/// for idle and graceful shutdown, async channel for the router), plus the blob handler first and a
/// ``ResponseEndCounter`` after the codec.
struct BlobHTTP1Channel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = AcceptedHTTPConnection

    let responder: HTTPChannelHandler.Responder
    let cache: BlobCache
    let serverName: String?
    let now: @Sendable () -> Int
    var accessLog: AccessLog? = nil

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let delivery = BlobDeliveryHandler(cache: cache, serverName: serverName, now: now, accessLog: accessLog)
            let pipeline = channel.pipeline.syncOperations
            try pipeline.addHandler(delivery)
            // NB: the settings `HTTP1Channel` uses: pipelining and errors are handled by Hummingbird, header
            // validation by HTTP types, and the decoder's limits are Hummingbird's defaults.
            var limits = NIOHTTPDecoderLimitConfiguration()
            limits.maxHeaderFieldSize = 80 * 1024
            limits.maxHeaderListSize = 80 * 1024
            limits.maxHeaderFieldCount = 1000
            try pipeline.configureHTTPServerPipeline(
                withPipeliningAssistance: false, withErrorHandling: false, withOutboundHeaderValidation: false,
                withEncoderConfiguration: .init(), withDecoderLimitConfiguration: limits)
            try pipeline.addHandler(HTTP1ToHTTPServerCodec(secure: false))
            try pipeline.addHandler(ResponseEndCounter(delivery: delivery))
            try pipeline.addHandler(HTTPConnectionStateHandler(idleTimeout: nil, logger: logger))
            return AcceptedHTTPConnection(
                try NIOAsyncChannel(
                    wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true)))
        }
    }

    func handle(value: Value, logger: Logger) async {
        value.handled.store(true, ordering: .relaxed)
        await handleHTTP(asyncChannel: value.asyncChannel, logger: logger)
    }
}

/// One accepted connection's async channel, which closes the connection if it is dropped unhandled.
///
/// A server that stops between accepting a connection (its pipeline built, its async channel made)
/// and handing it to a handler drops it. NIO's async writer traps when it is freed unfinished
/// ("Deinited NIOAsyncWriter without calling finish()", which killed the process), and the
/// connection would stay open; this finishes the writer and closes the connection instead, in a task
/// that holds the channel until then. A connection a handler took is closed by its handler.
final class AcceptedHTTPConnection: ServerChildChannelValue {
    let asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>
    /// Whether a handler took the connection.
    let handled = Atomic(false)

    var channel: any Channel { asyncChannel.channel }

    init(_ asyncChannel: NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>) {
        self.asyncChannel = asyncChannel
    }

    deinit {
        guard !handled.load(ordering: .relaxed) else { return }
        let asyncChannel = self.asyncChannel
        Task { try? await asyncChannel.executeThenClose { _, _ in } }
    }
}
