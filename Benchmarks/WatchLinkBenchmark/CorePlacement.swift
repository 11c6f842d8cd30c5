import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where the two processes' threads run (`--cores`): left to the scheduler, or pinned.
///
/// NB: on a VM a thread woken on another vCPU costs several times one woken on its own (an echo of
/// one frame: 46 µs against 11.5 µs here), and the scheduler places the echo's threads and
/// WatchLink's as it sees fit, block by block; pinned, the floor and WatchLink run in the same
/// place, so their ratio compares like with like.
enum CorePlacement: String, CaseIterable {
    /// The scheduler decides.
    case free
    /// The phone on CPU 0, the watch on CPU 1: every message crosses between CPUs.
    case split
    /// Both processes on CPU 0: no message crosses between CPUs, and nothing runs in parallel.
    case one

    /// The CPU this process's threads go to, or `nil` to leave them alone.
    func cpu(forWatch watch: Bool) -> Int? {
        switch self {
        case .free: nil
        case .split: watch ? 1 : 0
        case .one: 0
        }
    }

    /// Pins every thread of this process to `cpu` (threads made later inherit it from the thread
    /// that makes them); `false` when the system refuses (no such CPU).
    static func pinProcess(to cpu: Int) -> Bool {
        // NB: `sched_setaffinity` is not in the Glibc module; found by name in the C library.
        typealias SetAffinity = @convention(c) (pid_t, Int, UnsafeRawPointer) -> Int32
        guard cpu >= 0, cpu < 1024, let symbol = dlsym(dlopen(nil, RTLD_NOW), "sched_setaffinity") else { return false }
        let setAffinity = unsafeBitCast(symbol, to: SetAffinity.self)
        var mask = [UInt64](repeating: 0, count: 16)
        mask[cpu / 64] = 1 << UInt64(cpu % 64)
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        var pinned = !threads.isEmpty
        for thread in threads {
            guard let tid = pid_t(thread) else { continue }
            if mask.withUnsafeBytes({ setAffinity(tid, $0.count, $0.baseAddress!) }) != 0 { pinned = false }
        }
        return pinned
    }
}
