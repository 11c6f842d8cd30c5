import Foundation
import PWAKitTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("pwakit exits with its parent when asked")
struct ParentWatchTests {
    @Test("a server whose parent is gone exits on its own with PWAKIT_EXIT_WITH_PARENT=<parent id>, and keeps running without it")
    func orphanExits() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-orphan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        // Python starts the server with every other descriptor closed and exits at once: the server
        // is an orphan. (Not a shell: the server would inherit the descriptor by which Foundation
        // learns that the shell ended, and the wait for the shell would last as long as the server.)
        func startOrphan(watch: Bool, name: String) async throws -> pid_t {
            let script = """
                import os, subprocess, sys
                env = dict(os.environ)
                env.pop("PWAKIT_EXIT_WITH_PARENT", None)
                if sys.argv[3] == "watch":
                    env["PWAKIT_EXIT_WITH_PARENT"] = str(os.getpid())
                child = subprocess.Popen([sys.argv[1], "server", "--port", "0", "--password-cost", "16", "--data-dir", sys.argv[2]],
                    env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True)
                print(child.pid)
                """
            let run = try await BuiltBinary(url: URL(fileURLWithPath: "/usr/bin/python3")).run([
                "-c", script, PWAKitBinary.url.path, work.appendingPathComponent(name).path, watch ? "watch" : "none",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(pid_t(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)))
        }
        let watched = try await startOrphan(watch: true, name: "watched")
        let unwatched = try await startOrphan(watch: false, name: "unwatched")
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
