import Foundation
import PWAKitTesting
import Testing

/// Runs the built `pwakit` executable and captures what it prints (through PWAKitTesting's
/// ``BuiltBinary``, the one binary runner of the tests).
enum PWAKitBinary {
    /// What one run printed and how it exited.
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The repository root, for the examples.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The executable next to the test bundle (`.build/<triple>/debug/pwakit`), or `PWAKIT_BINARY`.
    static func locate() throws -> URL {
        try BuiltBinary.locate("pwakit", override: "PWAKIT_BINARY", packageRoot: repositoryRoot).url
    }

    /// Runs `pwakit` with `arguments` in `directory`.
    static func run(_ arguments: [String], in directory: URL = repositoryRoot, environment: [String: String] = [:]) throws
        -> Run
    {
        let run = try BuiltBinary(url: try locate()).run(arguments, in: directory, environment: environment)
        return Run(status: run.status, stdout: run.stdout, stderr: run.stderr)
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
