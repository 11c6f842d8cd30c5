import Foundation
import PWAKitServer
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `pwakit worker` processes on the server's SQLite file: several at once claim each job once, and a
/// worker killed with SIGKILL in the middle of a job leaves it to be rescued and completed once.
@Suite("pwakit worker processes", .serialized)
struct WorkerProcessTests {
    /// A data directory with one seeded user and a server that ingests nothing itself.
    struct Setup {
        let work: URL
        let data: URL
        let server: ServerProcess
        let token: String

        static func start() async throws -> Setup {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-workers-\(UUID().uuidString)")
            let data = work.appendingPathComponent("data")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let seed = #"{"users":[{"email":"sharer@example.com","password":"sharer-password"}]}"#
            try Data(seed.utf8).write(to: work.appendingPathComponent("seed.json"))
            let server = try await ServerProcess.start([
                "--data-dir", data.path, "--workers", "0", "--seed", work.appendingPathComponent("seed.json").path,
            ])
            let (_, login) = try await HTTPProbe.call(
                "POST", server.baseURL.appendingPathComponent("v1/auth/login"),
                json: ["email": "sharer@example.com", "password": "sharer-password"])
            let token = try #require(login["accessToken"]?.string)
            return Setup(work: work, data: data, server: server, token: token)
        }

        func post(_ url: String) async throws -> String { try await Self.post(url, baseURL: server.baseURL, token: token) }

        static func post(_ url: String, baseURL: URL, token: String) async throws -> String {
            let (status, body) = try await HTTPProbe.call(
                "POST", baseURL.appendingPathComponent("v1/posts"), json: ["url": url],
                headers: ["Authorization": "Bearer \(token)"])
            guard status == 201, let id = body["id"]?.string else { throw ProcessFailure("POST /v1/posts answered \(status)") }
            return id
        }

        /// Every post of the user, by id.
        func posts() async throws -> [String: JSONBody] {
            var all: [String: JSONBody] = [:]
            var cursor: String?
            repeat {
                var components = URLComponents(
                    url: server.baseURL.appendingPathComponent("v1/posts"), resolvingAgainstBaseURL: false)!
                components.queryItems =
                    [URLQueryItem(name: "limit", value: "100")] + (cursor.map { [URLQueryItem(name: "cursor", value: $0)] } ?? [])
                let (status, page) = try await HTTPProbe.call(
                    "GET", components.url!, headers: ["Authorization": "Bearer \(token)"])
                guard status == 200 else { throw ProcessFailure("GET /v1/posts answered \(status)") }
                for index in 0..<(page["posts"]?.count ?? 0) {
                    if let post = page["posts"]?[index], let id = post["id"]?.string { all[id] = post }
                }
                cursor = page["nextCursor"]?.string
            } while cursor != nil
            return all
        }

        /// Waits until `done` holds of the posts, for at most `timeout`.
        func waitForPosts(timeout: Duration, _ done: ([String: JSONBody]) -> Bool) async throws -> [String: JSONBody] {
            let deadline = ContinuousClock.now + timeout
            while true {
                let posts = try await posts()
                if done(posts) || ContinuousClock.now > deadline { return posts }
                try await Task.sleep(for: .milliseconds(200))
            }
        }

        func stop() async {
            await server.stop()
            try? FileManager.default.removeItem(at: work)
        }
    }

    static func page(_ title: String) -> [UInt8] {
        let body = "<html><head><title>\(title)</title><meta name=\"description\" content=\"About \(title)\"></head></html>"
        return Array(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
                .utf8)
    }

    @Test("four worker processes on one SQLite file ingest 1,000 posts, each page fetched once per attempt")
    func severalProcessesOneSQLiteFile() async throws {
        let fetches = Mutex<[String: Int]>([:])
        let site = CountingSite { path -> [UInt8]? in
            fetches.withLock { $0[path, default: 0] += 1 }
            return Self.page(path)
        }
        try await site.start()
        let setup = try await Setup.start()
        var workers: [ChildProcess] = []
        do {
            let count = 1000
            let (baseURL, token, port) = (setup.server.baseURL, setup.token, site.port)
            // NB: the workers poll before the posts arrive, so all of them take part.
            for _ in 0..<4 {
                workers.append(
                    try await ChildProcess.start(
                        [
                            "worker", "--data-dir", setup.data.path, "--concurrency", "4",
                            "--link-resolve", "pages.test:\(site.port):127.0.0.1",
                        ], until: "PWAKit worker ingesting"))
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<count {
                    if index >= 8 { try await group.next() }
                    group.addTask {
                        _ = try await Setup.post("http://pages.test:\(port)/p/\(index)", baseURL: baseURL, token: token)
                    }
                }
                try await group.waitForAll()
            }
            let posts = try await setup.waitForPosts(timeout: .seconds(120)) { posts in
                posts.count == count && posts.values.allSatisfy { $0["status"]?.string == "ready" }
            }
            #expect(posts.count == count)
            #expect(posts.values.filter { $0["status"]?.string == "ready" }.count == count)
            #expect(Set(posts.values.compactMap { $0["title"]?.string }).count == count, "each post has its own page's title")
            let counted = fetches.withLock { $0 }
            #expect(counted.count == count, "every page fetched")
            var complaints: [String] = []
            for worker in workers {
                let (status, output) = await worker.terminate()
                #expect(status == 0, "a worker stops cleanly on SIGTERM")
                #expect(output.contains("PWAKit worker stopped"))
                complaints += output.split(separator: "\n").filter { $0.contains("warning") || $0.contains("error") }.map(
                    String.init)
            }
            // The queue itself: each job claimed by one process at a time. A page is fetched once per
            // attempt, and a job runs again only after an attempt that failed and said why (a busy
            // database or a fetch that broke, under load); never because two workers held it, or its
            // lease ran out.
            let storage = try await SQLStorage.sqlite(path: setup.data.appendingPathComponent("pwakit.sqlite").path)
            var attempts: [String: Int] = [:]
            for (id, post) in posts {
                let jobs = try await storage.jobs(postId: id)
                #expect(jobs.count == 1 && jobs.allSatisfy { $0.state == .completed }, "post \(id): \(jobs)")
                guard let job = jobs.first, let page = post["title"]?.string else { continue }
                attempts[page] = job.attempt
                if job.attempt != 1 {
                    let error = job.lastError ?? "none"
                    #expect(
                        job.lastError != nil && !error.contains("lease ran out"),
                        "job \(job.id) ran \(job.attempt) times; last error: \(error)")
                }
            }
            #expect(attempts == counted, "each page fetched once per attempt of its job")
            let retried = attempts.values.filter { $0 != 1 }.count
            if retried > 0 {
                print("worker processes: \(retried) jobs ran again after a failed attempt: \(complaints.prefix(5))")
            }
            #expect(retried <= count / 100, "\(retried) jobs ran more than once; the workers logged: \(complaints.prefix(20))")
            let processes = try await storage.rawStatement("SELECT DISTINCT worker FROM jobs")
            try await storage.close()
            #expect(processes >= 2, "the jobs were shared out between processes")
        } catch {
            for worker in workers { _ = await worker.terminate() }
            await setup.stop()
            await site.stop()
            throw error
        }
        await setup.stop()
        await site.stop()
    }

    @Test("a worker killed with SIGKILL mid-fetch: its job is rescued when the lease runs out and completed once")
    func killedWorkerJobRescued() async throws {
        let fetches = Mutex(0)
        let site = CountingSite { path -> [UInt8]? in
            let attempt = fetches.withLock { count in
                count += 1
                return count
            }
            // NB: the first fetch never answers: the worker is killed while it waits.
            return attempt == 1 ? nil : Self.page("Rescued")
        }
        try await site.start()
        let setup = try await Setup.start()
        do {
            let id = try await setup.post("http://pages.test:\(site.port)/slow")
            let arguments = [
                "worker", "--data-dir", setup.data.path, "--concurrency", "1", "--lease-seconds", "3",
                "--link-resolve", "pages.test:\(site.port):127.0.0.1",
            ]
            let doomed = try await ChildProcess.start(arguments, until: "PWAKit worker ingesting")
            let deadline = ContinuousClock.now + .seconds(30)
            while fetches.withLock({ $0 }) == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(50)) }
            #expect(fetches.withLock { $0 } == 1, "the first worker is fetching the page")
            doomed.kill()
            _ = await doomed.terminate()
            // NB: the lease (3 s) runs out; the next worker rescues the job as it starts.
            try await Task.sleep(for: .seconds(3.5))
            let survivor = try await ChildProcess.start(arguments, until: "PWAKit worker ingesting")
            let posts = try await setup.waitForPosts(timeout: .seconds(60)) { $0[id]?["status"]?.string == "ready" }
            #expect(posts[id]?["status"]?.string == "ready")
            #expect(posts[id]?["title"]?.string == "Rescued")
            // Long enough for a second completion to show, were there one.
            try await Task.sleep(for: .seconds(1))
            #expect(fetches.withLock { $0 } == 2, "one fetch per attempt: the dead worker's and the rescuer's")
            let (status, _) = await survivor.terminate()
            #expect(status == 0)
        } catch {
            await setup.stop()
            await site.stop()
            throw error
        }
        await setup.stop()
        await site.stop()
    }

    @Test("--link-resolve and --lease-seconds are checked before anything starts")
    func badOptions() async throws {
        for (arguments, fragment) in [
            (["--link-resolve", "pages.test:80"], "expected name:port:address"),
            (["--link-resolve", "pages.test:99999:127.0.0.1"], "port"),
            (["--link-resolve", "127.0.0.1:80:127.0.0.1"], "is an address, not a host name"),
            (["--link-resolve", "pages.test:80:not-an-address"], "is not an IPv4 or IPv6 address"),
            (["--lease-seconds", "1"], "--lease-seconds"),
            (["--concurrency", "0"], "--concurrency"),
        ] {
            let result = try await PWAKitBinary.run(["worker", "--data-dir", "/nonexistent/never-created"] + arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.stderr.contains(fragment), "\(arguments): \(result.stderr)")
        }
    }
}

/// A `pwakit` process run in the background, started once its standard output shows a line.
final class ChildProcess: Sendable {
    let process: Process
    private let output = Mutex(Data())
    /// Whether the end of its output was read.
    private let ended = Mutex(false)

    private init(process: Process) { self.process = process }

    /// Starts `pwakit arguments` and waits (at most 30 s) until a line of its output contains `marker`.
    static func start(_ arguments: [String], until marker: String, environment: [String: String] = [:]) async throws
        -> ChildProcess
    {
        let process = Process()
        process.executableURL = PWAKitBinary.url
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PWAKIT_EXIT_WITH_PARENT": String(ProcessInfo.processInfo.processIdentifier)
        ]) { $1 }
        .merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.standardError
        let child = ChildProcess(process: process)
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let chunk = handle.availableData
            guard chunk.isEmpty else { return child.output.withLock { $0.append(chunk) } }
            handle.readabilityHandler = nil
            child.ended.withLock { $0 = true }
        }
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while !child.text.contains(marker) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                _ = await child.terminate()
                throw ProcessFailure("\(arguments.first ?? "") never printed \(marker): \(child.text)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return child
    }

    var text: String { String(decoding: output.withLock { $0 }, as: UTF8.self) }

    /// SIGKILL.
    func kill() { _ = Glibc.kill(process.processIdentifier, SIGKILL) }

    /// SIGTERM (unless it has ended), then its exit status and everything it printed.
    func terminate() async -> (Int32, String) {
        if process.isRunning { process.terminate() }
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
        // NB: until the output was read to its end (its reader runs on a thread of its own, and may
        // not have read the last line when the process has exited), or 30 s.
        let deadline = ContinuousClock.now + .seconds(30)
        while !ended.withLock({ $0 }), ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(10)) }
        return (process.terminationStatus, text)
    }
}
