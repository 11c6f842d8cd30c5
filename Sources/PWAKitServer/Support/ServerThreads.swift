import Foundation
import NIOCore
import NIOPosix

/// The threads of a process whose main job is serving ``PlatformServer``.
public enum ServerThreads {
    /// Sizes NIO's shared event loops to the CPUs the process may run on and makes them Swift
    /// concurrency's global executor, so request handlers run on the loop that owns their connection
    /// instead of hopping to another thread pool and back.
    ///
    /// Call it once, first thing in `main`, on the main thread, before any task starts. Blocking work
    /// (password hashing, SQLite) already runs on NIO's thread pool. Returns whether the executor was installed.
    @discardableResult
    public static func runConcurrencyOnEventLoops() -> Bool {
        NIOSingletons.groupLoopCountSuggestion = usableCoreCount
        return NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
    }

    /// The CPUs this process may run on: NIO's count (which honours cgroup limits), narrowed by the
    /// scheduler affinity mask (`taskset`, `numactl`) that NIO does not read.
    public static var usableCoreCount: Int {
        let system = System.coreCount
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }),
            let allowed = cpuCount(list: line.dropFirst("Cpus_allowed_list:".count))
        else { return system }
        return max(1, min(system, allowed))
    }

    /// The number of CPUs in a Linux CPU list such as `0-3,8,10-11`; `nil` when it is malformed.
    static func cpuCount(list: Substring) -> Int? {
        var count = 0
        for part in list.split(separator: ",") {
            let bounds = part.trimmingCharacters(in: .whitespaces).split(separator: "-")
            guard let low = bounds.first.flatMap({ Int($0) }), let high = (bounds.count == 2 ? Int(bounds[1]) : low),
                bounds.count <= 2, low <= high
            else { return nil }
            count += high - low + 1
        }
        return count > 0 ? count : nil
    }
}
