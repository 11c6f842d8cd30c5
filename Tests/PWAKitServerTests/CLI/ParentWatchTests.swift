import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("pwakit exits with its parent when asked")
struct ParentWatchTests {
    @Test("a server whose parent is gone exits on its own with PWAKIT_EXIT_WITH_PARENT=1, and keeps running without it")
    func orphanExits() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-orphan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // A shell starts the server in the background and exits at once: the server is an orphan.
        func startOrphan(watch: Bool, name: String) throws -> pid_t {
            let pidFile = work.appendingPathComponent("\(name).pid")
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = [
                "-c",
                "\"$0\" server --port 0 --password-cost 16 --data-dir \"$1\" >/dev/null 2>&1 </dev/null & echo $! > \"$2\"",
                PWAKitBinary.url.path, work.appendingPathComponent(name).path, pidFile.path,
            ]
            var environment = ProcessInfo.processInfo.environment
            environment["PWAKIT_EXIT_WITH_PARENT"] = watch ? "1" : nil
            shell.environment = environment
            try shell.run()
            shell.waitUntilExit()
            let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            return try #require(pid_t(text))
        }
        let watched = try startOrphan(watch: true, name: "watched")
        let unwatched = try startOrphan(watch: false, name: "unwatched")
        defer { kill(unwatched, SIGKILL) }
        // NB: an orphan is reaped by whoever adopted it; gone or a zombie both mean it exited.
        func alive(_ pid: pid_t) -> Bool {
            guard kill(pid, 0) == 0 else { return false }
            let state = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8))?.split(separator: " ")
            return state.map { $0.count > 2 && $0[2] != "Z" } ?? false
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while alive(watched), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
        #expect(!alive(watched), "the watched orphan is still running")
        #expect(alive(unwatched), "the unwatched orphan should run until it is stopped")
    }
}
