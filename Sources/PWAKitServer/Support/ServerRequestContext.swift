import Foundation
import HTTPTypes
public import Hummingbird
import Logging
import NIOCore

/// The per-request context: Hummingbird's core storage plus the peer address used for throttling.
public struct ServerRequestContext: RequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The peer's IP address, when the transport knows it.
    public let peerAddress: String?

    /// Creates the context for a request arriving on a channel.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
    }

    /// Upload limit for bodies Hummingbird collects itself; our handlers enforce their own, smaller ones.
    public var maxUploadSize: Int { 1 << 30 }
}
