import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends the process when the process that started it is gone, if `PWAKIT_EXIT_WITH_PARENT=1`.
///
/// A test run that starts `pwakit server` and then dies would otherwise leave the server running,
/// holding the test runner's output open, so whatever reads that output waits for ever. The watch
/// checks twice a second whether the parent has changed (the orphan was adopted) and then exits
/// at once with status 70, without running cleanup that could block.
enum ParentWatch {
    /// The variable that turns the watch on.
    static let variable = "PWAKIT_EXIT_WITH_PARENT"

    /// Starts the watch when the environment asks for it.
    static func startIfAsked(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard environment[variable] == "1" else { return }
        let parent = getppid()
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
