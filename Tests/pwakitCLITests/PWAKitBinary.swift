import Foundation
import Testing

/// Runs the built `pwakit` executable and captures what it prints.
struct PWAKitBinary {
    /// What one run printed and how it exited.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The repository root, for the examples.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable next to the test bundle (`.build/<triple>/debug/pwakit`).
    static func locate() throws -> URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var candidates = [
            runner.deletingLastPathComponent(),
            Bundle.main.bundleURL.deletingLastPathComponent(),
            // NB: on macOS the tests run inside `PWAKitPackageTests.xctest/Contents/MacOS`.
            runner.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent(),
        ].map { $0.appendingPathComponent("pwakit") }
        if let explicit = ProcessInfo.processInfo.environment["PWAKIT_BINARY"] {
            candidates.insert(URL(fileURLWithPath: explicit), at: 0)
        }
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "no pwakit executable in \(candidates.map(\.path))")
    }

    /// Runs `pwakit` with `arguments` in `directory`.
    static func run(_ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:]) throws
        -> Run
    {
        let scratch = try TemporaryDirectory()
        let outURL = scratch.url.appendingPathComponent("stdout")
        let errURL = scratch.url.appendingPathComponent("stderr")
        try Data().write(to: outURL)
        try Data().write(to: errURL)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = try locate()
        process.arguments = arguments
        process.currentDirectoryURL = directory
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
}

/// A fresh directory under the system's temporary directory, removed on deinit.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to `name` inside the directory and returns its URL.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> URL {
        let file = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
        return file
    }

    /// Writes raw bytes to `name` inside the directory and returns its URL.
    @discardableResult
    func write(_ name: String, bytes: Data) throws -> URL {
        let file = url.appendingPathComponent(name)
        try bytes.write(to: file)
        return file
    }

    func read(_ name: String) throws -> String {
        String(decoding: try Data(contentsOf: url.appendingPathComponent(name)), as: UTF8.self)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
