import Foundation
import Testing

@testable import PWAKitServer

/// Runs `zbarimg` (Debian's zbar-tools) on an image and returns what it read.
func zbarDecode(_ image: URL) throws -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
    process.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", image.path]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
}

/// Whether the QR reader the tests decode with is here (CI installs zbar-tools; see scripts/test).
let zbarAvailable =
    FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg")
    || ProcessInfo.processInfo.environment["PWAKIT_TEST_REQUIRE_BROWSER"] == "1"

@Suite("QR codes")
struct QRCodeTests {
    @Test("codes of 1 to 400 bytes (versions 1 to 15) are read back by zbar exactly", .enabled(if: zbarAvailable))
    func roundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var versions = Set<Int>()
        for length in [1, 10, 14, 20, 26, 42, 60, 62, 84, 106, 122, 152, 180, 213, 251, 287, 331, 362, 400, 412] {
            let text = String((0..<length).map { index in Array("pwakit://identity/qr?AZaz09-_~")[(index * 7 + length) % 29] })
            let code = try QRCode(Array(text.utf8))
            versions.insert(code.version)
            let file = directory.appendingPathComponent("\(length).pbm")
            try code.pbm().write(to: file, atomically: true, encoding: .ascii)
            #expect(try zbarDecode(file) == text, "\(length) bytes, version \(code.version)")
        }
        #expect(versions.count >= 14)
        #expect(throws: QRCode.TooLong.self) { try QRCode(Array(repeating: 0x41, count: 413)) }
    }

    @Test("the SVG draws every dark module once, inside a quiet zone")
    func svg() throws {
        let code = try QRCode(Array("hello".utf8))
        let svg = code.svg(moduleSize: 2)
        #expect(code.size == 21)
        #expect(svg.hasPrefix("<svg"))
        #expect(svg.components(separatedBy: "h2v2h-2z").count - 1 == code.modules.filter { $0 }.count)
        #expect(svg.contains("viewBox=\"0 0 58 58\""))
    }
}
