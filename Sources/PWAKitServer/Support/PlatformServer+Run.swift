import Foundation
public import Hummingbird
public import HummingbirdCore
public import Logging
import NIOCore

extension PlatformServer {
    /// Serves on `host:port` until SIGINT or SIGTERM; `onListening` receives the bound port (useful with port 0).
    /// `extraRoutes` adds routes beside the server's own (benchmarks add an authenticated hello-world).
    public func run(
        host: String, port: Int, logger: Logger,
        extraRoutes: (Router<ServerRequestContext>, PlatformServer) -> Void = { _, _ in },
        onListening: @escaping @Sendable (Int) async -> Void
    ) async throws {
        let app = Application(
            router: router(extraRoutes: extraRoutes), server: httpServer(serverName: "pwakit"),
            configuration: .init(address: .hostname(host, port: port), serverName: "pwakit"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger
        )
        try await app.runService()
    }

    /// HTTP/1.1 with blobs of a ``FileBlobStore`` sent from the channel pipeline with `sendfile`;
    /// ``run(host:port:logger:extraRoutes:onListening:)`` serves with it. Pass the same `serverName` as
    /// the application's configuration.
    public func httpServer(serverName: String?) -> HTTPServerBuilder {
        guard let store = blobs as? FileBlobStore else { return .http1() }
        return .http1(
            configuration: .init(additionalChannelHandlers: [BlobDeliveryHandler(store: store, serverName: serverName)]))
    }
}
