import Foundation
import Hummingbird
public import Logging
import NIOCore

extension PlatformServer {
    /// Serves on `host:port` until SIGINT or SIGTERM; `onListening` receives the bound port (useful with port 0).
    public func run(host: String, port: Int, logger: Logger, onListening: @escaping @Sendable (Int) async -> Void) async throws {
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "pwakit"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger
        )
        try await app.runService()
    }
}
