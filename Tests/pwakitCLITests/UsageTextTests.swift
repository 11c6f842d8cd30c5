import Foundation
import Testing

/// Commands that run as the process's root command (they keep the main thread for GTK) still name
/// themselves in full in their usage errors.
@Suite("usage texts name the whole command")
struct UsageTextTests {
    @Test(arguments: [
        (["run", "--size", "10x", "."], "pwakit run"),
        (["launcher", "--size", "10x"], "pwakit launcher"),
        (["miniapp", "open", "--nonsense"], "pwakit miniapp open"),
    ])
    func fullName(arguments: [String], name: String) throws {
        let run = try PWAKitBinary.run(arguments)
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("Usage: \(name) "), "\(run.stderr)")
        #expect(run.stderr.contains("See '\(name) --help'"), "\(run.stderr)")
    }
}
