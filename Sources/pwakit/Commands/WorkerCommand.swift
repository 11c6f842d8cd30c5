import ArgumentParser
import Foundation
import Logging
import PWAKitServer
import ServiceLifecycle
import UnixSignals

/// `pwakit worker`: ingests shared links from the server's job queue, in a process of its own.
struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Ingest shared links (fetch the page, build its preview) from the server's job queue.",
        discussion: """
            Works the same database as `pwakit server`: give it the same --data-dir (SQLite, and \
            the thumbnails' blob store) or the same PostgreSQL URL. Several workers, on this machine \
            or others, can work one queue: a claim is atomic, and a job whose worker dies is rescued \
            once its lease runs out. Workers on other machines must see the blob store (a shared \
            file system mounted at --data-dir/blobs). SIGTERM or SIGINT stops claiming and finishes \
            the posts in hand.
            """)

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Posts ingested at once.")
    var concurrency = 4

    @OptionGroup var links: LinkFetchOptions

    func validate() throws {
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 64") }
    }

    func run() async throws {
        var logger = Logger(label: "pwakit.worker")
        logger.logLevel = .notice
        let storage: SQLStorage
        do {
            try database.prepareDataDirectory()
            storage = try await database.openStorage(environment: ProcessInfo.processInfo.environment, logger: logger)
        } catch {
            ServerOutput.standardError("error: \(error)")
            throw ExitCode(1)
        }
        do {
            let handler = IngestPostHandler(storage: storage, blobs: try database.blobStore(), fetcher: try links.fetcher())
            let runner = JobRunner(
                storage: storage, handlers: [handler], configuration: links.runnerConfiguration(concurrency: concurrency),
                logger: logger)
            let group = ServiceGroup(
                configuration: ServiceGroupConfiguration(
                    services: [.init(service: runner)], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            let engine = try await database.engineDescription(storage)
            ServerOutput.standardOutput(
                "PWAKit worker ingesting posts, \(concurrency) at once (\(engine))")
            try await group.run()
        } catch {
            try? await storage.close()
            ServerOutput.standardError("error: \(error)")
            throw ExitCode(1)
        }
        try await storage.close()
        ServerOutput.standardOutput("PWAKit worker stopped")
    }
}
