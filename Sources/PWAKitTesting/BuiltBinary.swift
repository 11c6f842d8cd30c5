public import Foundation

/// An executable this package builds (`pwakit`, `WatchLinkDemo`), found beside the running tests
/// and run to completion with its output captured: the one binary runner of the project's tests.
///
/// Output goes to files, not pipes, so a child that prints more than a pipe holds never blocks
/// on a reader that is waiting for it to exit.
public struct BuiltBinary: Sendable {
    /// What one run printed and how it exited.
    public struct Run: Sendable {
        /// The exit status (or the terminating signal's number).
        public var status: Int32
        /// Standard output.
        public var stdout: String
        /// Standard error.
        public var stderr: String
    }

    /// A binary that cannot be found.
    public struct NotFound: Error, CustomStringConvertible {
        /// The places searched.
        public var searched: [String]
        /// `no <name> executable in …`.
        public var description: String { "no executable in \(searched)" }
    }

    /// The executable.
    public let url: URL

    /// The executable at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The executable called `name`: `environment[override]` when set, else the first found beside
    /// the test runner (`.build/<triple>/debug/`), in the package's `.build/debug/`, or (macOS) four
    /// levels up from the runner inside its bundle.
    public static func locate(
        _ name: String, override: String, packageRoot: URL? = nil,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> BuiltBinary {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [
            runner.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            runner.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent(),
        ].map { $0.appendingPathComponent(name) }
        if let packageRoot { candidates.append(packageRoot.appendingPathComponent(".build/debug/\(name)")) }
        if let explicit = environment[override] { candidates.insert(URL(fileURLWithPath: explicit), at: 0) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw NotFound(searched: candidates.map(\.path))
        }
        return BuiltBinary(url: found)
    }

    /// Runs with `arguments` in `directory` (standard input empty), `environment` merged over the
    /// test process's, and waits for the exit.
    public func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) throws -> Run {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("stdout")
        let errURL = scratch.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Run(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// As ``run(_:in:environment:)``, off the caller's executor (the wait blocks a thread).
    public func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String] = [:]) async throws
        -> Run
    {
        let binary = self
        return try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try binary.run(arguments, in: directory, environment: environment) })
            }
        }
    }
}
