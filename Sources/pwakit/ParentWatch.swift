import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends the process when the process that started it is gone, if `PWAKIT_EXIT_WITH_PARENT` names
/// that process's id.
///
/// A test run that starts `pwakit server` and then dies would otherwise leave the server running,
/// holding the test runner's output open, so whatever reads that output waits for ever. The watch
/// checks at start and then twice a second whether the parent is still the one named (an orphan is
/// adopted by another process) and otherwise exits at once with status 70, without running cleanup
/// that could block. The id is given rather than read at start because the parent may already be
/// gone by the time this process runs its first line.
enum ParentWatch {
    /// The variable that turns the watch on.
    static let variable = "PWAKIT_EXIT_WITH_PARENT"

    /// Starts the watch when the environment asks for it.
    static func startIfAsked(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let parent = environment[variable].flatMap({ pid_t($0) }), parent > 1 else { return }
        // NB: not inherited: a process this one starts (the Xvfb re-run) has another parent.
        unsetenv(variable)
        if getppid() != parent { _exit(70) }
        let thread = Thread {
            while true {
                Thread.sleep(forTimeInterval: 0.5)
                if getppid() != parent { _exit(70) }
            }
        }
        thread.name = "parent-watch"
        thread.start()
    }
}
