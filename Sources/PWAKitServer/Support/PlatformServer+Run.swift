import Foundation
public import Hummingbird
public import HummingbirdCore
public import Logging
import NIOCore
public import ServiceLifecycle

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension PlatformServer {
    /// Serves on `host:port` until SIGINT or SIGTERM; `onListening` receives the bound port (useful with port 0).
    /// `extraRoutes` adds routes beside the server's own (benchmarks add an authenticated hello-world);
    /// `services` run beside the server and shut down after it (an OTLP exporter flushes then).
    public func run(
        host: String, port: Int, logger: Logger,
        extraRoutes: (Router<ServerRequestContext>, PlatformServer) -> Void = { _, _ in },
        services: [any Service] = [],
        onListening: @escaping @Sendable (Int) async -> Void
    ) async throws {
        // What no longer matters goes at start and every hour after.
        let purging = Task { [self] in
            while !Task.isCancelled {
                if let removed = try? await purge(), removed > 0 {
                    logger.info("purged \(removed) expired rows (throttles, refresh tokens, launch codes, finished jobs)")
                }
                try? await Task.sleep(for: .seconds(3600))
            }
        }
        defer { purging.cancel() }
        var app = Application(
            router: router(extraRoutes: extraRoutes), server: httpServer(serverName: "pwakit"),
            configuration: .init(address: .hostname(host, port: port), serverName: "pwakit"),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? port) },
            logger: logger
        )
        app.addServices(services)
        if configuration.ingestionWorkers > 0 {
            // NB: a service of the server's own group: on SIGTERM it stops claiming and finishes the posts in hand.
            app.addServices(
                JobRunner(
                    storage: storage, handlers: [ingestionHandler],
                    configuration: JobRunnerConfiguration(
                        concurrency: configuration.ingestionWorkers, lease: configuration.ingestionLease),
                    now: environment.now, logger: logger))
        }
        try await app.runService()
    }

    /// The `ingest_post` handler over this server's storage, blobs and link fetcher.
    public var ingestionHandler: IngestPostHandler {
        IngestPostHandler(storage: storage, blobs: blobs, fetcher: configuration.linkFetcher, now: environment.now)
    }

    /// Deletes expired throttle rows, refresh tokens and launch codes, and jobs done longer ago than
    /// their retention; how many rows went.
    @discardableResult
    public func purge() async throws -> Int {
        let now = environment.now()
        let expired = try await storage.purge(
            now: now, throttleBefore: now.addingTimeInterval(-configuration.throttleWindow),
            knownBefore: now.addingTimeInterval(-configuration.knownAddressLifetime))
        let jobs = try await storage.purgeJobs(
            completedBefore: now.addingTimeInterval(-configuration.completedJobRetention),
            deadBefore: now.addingTimeInterval(-configuration.deadJobRetention), kinds: nil)
        return expired + jobs
    }

    /// HTTP/1.1 with blobs of a ``FileBlobStore`` answered in the channel pipeline, in front of the decoder,
    /// from a bounded cache (bodies in memory or sent with `sendfile`);
    /// ``run(host:port:logger:extraRoutes:onListening:)`` serves with it. Pass the same `serverName` as the
    /// application's configuration.
    public func httpServer(serverName: String?) -> HTTPServerBuilder {
        guard let store = blobs as? FileBlobStore else { return .http1() }
        return httpServer(serverName: serverName, cache: BlobCache(store: store), now: { Int(time(nil)) })
    }

    /// ``httpServer(serverName:)`` with a given cache and clock (seconds since 1970).
    func httpServer(serverName: String?, cache: BlobCache, now: @escaping @Sendable () -> Int) -> HTTPServerBuilder {
        let accessLog = configuration.accessLog
        return HTTPServerBuilder { responder in
            BlobHTTP1Channel(responder: responder, cache: cache, serverName: serverName, now: now, accessLog: accessLog)
        }
    }
}
