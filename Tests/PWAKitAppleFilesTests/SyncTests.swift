import Foundation
import PWAKitCore
import Testing

@testable import PWAKitAppleFiles

@Suite("Syncing the Apple files to a directory")
struct SyncTests {
    @Test("a first sync creates every file, a second finds them up to date, an edit is shown and undone")
    func lifecycle() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-sync-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let files = AppleFiles(configuration: try AppleFilesTests.configuration())
        let first = try AppleFilesSync.plan(files, directory: directory)
        #expect(first.allSatisfy { $0.status == .created })
        try AppleFilesSync.write(first, directory: directory)
        #expect(try AppleFilesSync.plan(files, directory: directory).allSatisfy { $0.status == .unchanged })

        let info = directory + "/Info.plist"
        let original = try Data(contentsOf: URL(fileURLWithPath: info))
        try Data(
            String(decoding: original, as: UTF8.self).replacingOccurrences(
                of: "<string>Notes</string>", with: "<string>Old</string>"
            ).utf8
        )
        .write(to: URL(fileURLWithPath: info))
        let edited = try AppleFilesSync.plan(files, directory: directory)
        let changed = try #require(edited.first { $0.path == "Info.plist" })
        #expect(changed.status == .updated)
        #expect(changed.diff.contains("-\t<string>Old</string>\n+\t<string>Notes</string>"))
        #expect(edited.filter { $0.status != .unchanged }.count == 1)
        try AppleFilesSync.write(edited, directory: directory)
        #expect(try Data(contentsOf: URL(fileURLWithPath: info)) == original)
    }

    @Test("the unified diff counts its lines and keeps context")
    func diff() {
        let before = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
        let after = before.replacingOccurrences(of: "line 5\n", with: "line five\n") + "line 11\n"
        let diff = LineDiff.unified(before: before, after: after, path: "f")
        #expect(
            diff == """
                --- a/f
                +++ b/f
                @@ -2,9 +2,10 @@
                 line 2
                 line 3
                 line 4
                -line 5
                +line five
                 line 6
                 line 7
                 line 8
                 line 9
                 line 10
                +line 11

                """)
        #expect(LineDiff.unified(before: before, after: before, path: "f").isEmpty)
        #expect(LineDiff.unified(before: nil, after: "a\n", path: "f") == "--- /dev/null\n+++ b/f\n@@ -0,0 +1,1 @@\n+a\n")
        #expect(LineDiff.unified(before: "a", after: "a\n", path: "f").contains("only the line endings"))
    }
}
