import Foundation
import Hummingbird
import Logging
import PWAKitServer

/// The server process under test: the real router plus `GET /bench/hello` behind the same authentication.
enum BenchmarkServe {
    /// Arguments: `DATA_DIR USERS [DATABASE_URL]`. Prints `listening PORT` when ready.
    static func main(_ arguments: [String]) async throws {
        guard arguments.count >= 2, let users = Int(arguments[1]) else {
            throw BenchmarkError("serve DATA_DIR USERS [DATABASE_URL]")
        }
        let dataDir = URL(fileURLWithPath: arguments[0])
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let storage: SQLStorage =
            if arguments.count > 2 {
                try await SQLStorage.postgres(url: arguments[2], logger: logger)
            } else {
                try await SQLStorage.sqlite(path: dataDir.appendingPathComponent("bench.sqlite").path, logger: logger)
            }
        var configuration = ServerConfiguration()
        configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
        configuration.accessTokenLifetime = 3600
        configuration.addressFailureLimit = .max
        let server = try await PlatformServer.make(
            storage: storage, blobs: try FileBlobStore(root: dataDir.appendingPathComponent("blobs")),
            configuration: configuration)
        var seed = ServerSeed(users: [], apps: [])
        for index in 0..<users { seed.users?.append(.init(email: "bench-\(index)@example.com", password: "bench-password")) }
        for index in 0..<12 {
            seed.apps?.append(
                .init(
                    id: "bench-app-\(index)", name: "Benchmark app \(index)", description: "A mini-app in the benchmark catalog"))
        }
        try await server.apply(seed)
        try await server.run(
            host: "127.0.0.1", port: 0, logger: logger,
            extraRoutes: { router, server in
                router.get("/bench/hello") { request, _ -> String in
                    _ = try await server.authenticate(request)
                    return "hello"
                }
            },
            onListening: { port in FileHandle.standardOutput.write(Data("listening \(port)\n".utf8)) }
        )
        try await storage.close()
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
