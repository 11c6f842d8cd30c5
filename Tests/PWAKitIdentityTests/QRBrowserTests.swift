import Foundation
import PWAKitAPI
import PWAKitIdentity
import Synchronization
import Testing

/// Whether headless Chromium and the QR reader are here; CI installs both (scripts/test) and sets
/// `PWAKIT_TEST_REQUIRE_BROWSER=1`, so there a missing one fails instead of skipping.
let browserAvailable =
    ProcessInfo.processInfo.environment["PWAKIT_TEST_REQUIRE_BROWSER"] == "1"
    || (FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium") && zbarAvailable)

@Suite("QR sign-in in a real browser")
struct QRBrowserTests {
    @Test(
        "headless Chromium shows the code; the code read off its screen and approved on the device signs in that page",
        .enabled(if: browserAvailable), .timeLimit(.minutes(2)))
    func browserSignIn() async throws {
        try await LiveIdentityServer.run(realClock: true) { live in
            let (client, user, _) = try await live.enrolled()
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent()
            let screenshot = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-qr-\(UUID().uuidString).png")
            defer { try? FileManager.default.removeItem(at: screenshot) }
            let browser = Process()
            browser.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            browser.arguments = [
                root.appendingPathComponent("scripts/browser/qr-signin.py").path,
                live.baseURL.appendingPathComponent("v1/identity/qr").absoluteString, screenshot.path, "90",
            ]
            let lines = LineReader()
            let out = Pipe()
            browser.standardOutput = out
            browser.standardError = FileHandle.nullDevice
            out.fileHandleForReading.readabilityHandler = { handle in lines.append(handle.availableData) }
            try browser.run()
            defer { if browser.isRunning { browser.terminate() } }

            let shown = try await lines.next(prefix: "PAYLOAD ")
            _ = try await lines.next(prefix: "SCREENSHOT ")
            // The device reads the code off the screen, as a camera would.
            let read = try #require(try zbarDecode(screenshot), "zbar read no code from the screenshot")
            #expect(read == shown)
            let scanned = try await client.scan(read)
            #expect(scanned.context.origin == "http://127.0.0.1:\(live.baseURL.port!)")
            #expect(scanned.context.requesterAgent.contains("Chrome"))
            #expect(try await client.approve(scanned, check: .pin("27491")).status == "approved")
            let signedIn = try await lines.next(prefix: "SIGNED_IN ")
            #expect(signedIn == user.email)
        }
    }
}

/// Collects a child's output and hands out its lines as they arrive.
final class LineReader: Sendable {
    private let state = Mutex<(buffer: String, lines: [String])>(("", []))

    func append(_ data: Data) {
        state.withLock { state in
            state.buffer += String(decoding: data, as: UTF8.self)
            while let newline = state.buffer.firstIndex(of: "\n") {
                state.lines.append(String(state.buffer[..<newline]))
                state.buffer = String(state.buffer[state.buffer.index(after: newline)...])
            }
        }
    }

    /// The rest of the first line starting with `prefix`, dropping the lines before it; a `FAILED`
    /// line or 90 s without a match throws.
    func next(prefix: String) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(90)
        while ContinuousClock.now < deadline {
            let found: String? = try state.withLock { state in
                if let failed = state.lines.first(where: { $0.hasPrefix("FAILED") }) { throw TestFailure(failed) }
                guard let index = state.lines.firstIndex(where: { $0.hasPrefix(prefix) }) else { return nil }
                let line = state.lines[index]
                // NB: the lines before the match are passed over with it.
                state.lines.removeFirst(index + 1)
                return String(line.dropFirst(prefix.count))
            }
            if let found { return found }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw TestFailure("no \(prefix)line within 90 s")
    }
}
