import Foundation
import Testing

@Suite("The error-code page")
struct ErrorCodesPageTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("docs/errors.md lists every code of every target as the sources declare it (run scripts/generate-errors)")
    func pageIsCurrent() throws {
        let (status, text) = try Self.python(Self.root.appendingPathComponent("scripts/generate-errors").path, "--check")
        #expect(status == 0, "\(text)")
    }

    /// Runs a Python script; its exit status and what it printed on either stream.
    static func python(_ arguments: String...) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test("a code with no meaning is refused: the generator names it and fails")
    func undocumentedCodeFails() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("errors-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let scripts = folder.appendingPathComponent("scripts")
        let source = folder.appendingPathComponent("Sources/PWAKitCore/Bridge")
        try FileManager.default.createDirectory(at: scripts, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Self.root.appendingPathComponent("scripts/generate-errors"), to: scripts.appendingPathComponent("generate-errors")
        )
        try Data("        public static let silent: Code = \"silent\"\n".utf8)
            .write(to: source.appendingPathComponent("BridgeError.swift"))
        let (status, text) = try Self.python(scripts.appendingPathComponent("generate-errors").path)
        #expect(status != 0)
        #expect(text.contains("silent has no /// comment"))
    }
}
