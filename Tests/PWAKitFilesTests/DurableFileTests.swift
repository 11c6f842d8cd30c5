import Foundation
import PWAKitFiles
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one crash-safe file writer every target uses.
@Suite struct DurableFileTests {
    static func directory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("durable-\(UUID().uuidString)").path
        try DurableFile.makeDirectory(path + "/a/b", permissions: 0o700)
        return path
    }

    static func leftovers(in directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".tmp") }
    }

    @Test func replaceWritesTheWholeFileWithItsPermissionsAndLeavesNoTemporary() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/a/b/file.json"
        try DurableFile.replace(path, with: Array("first".utf8), permissions: 0o600)
        try DurableFile.replace(path, with: Array("second, longer".utf8), permissions: 0o600)
        #expect(try DurableFile.contents(of: path) == Data("second, longer".utf8))
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber
        #expect(mode?.intValue == 0o600)
        #expect(try Self.leftovers(in: root + "/a/b").isEmpty)
        #expect(try DurableFile.contents(of: root + "/a/b/missing") == nil)
    }

    @Test func aFailedReplaceLeavesNothingBehind() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(throws: FileSystemError.self) { try DurableFile.replace(root + "/absent/file", with: [1, 2, 3]) }
        // A directory where the file should be: the rename fails, the temporary is removed.
        #expect(throws: FileSystemError.self) { try DurableFile.replace(root + "/a", with: [1]) }
        #expect(try Self.leftovers(in: root).isEmpty)
        #expect(FileManager.default.fileExists(atPath: root + "/a/b"))
    }

    @Test func createExclusivelyHasExactlyOneWinnerAndNeverReplaces() async throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/a/key"
        let winners = try await withThrowingTaskGroup(of: (Bool, UInt8).self) { group in
            for index in 0..<16 {
                group.addTask {
                    let byte = UInt8(index)
                    return (try DurableFile.createExclusively(path, with: Array(repeating: byte, count: 32)), byte)
                }
            }
            var out: [UInt8] = []
            for try await (won, byte) in group where won { out.append(byte) }
            return out
        }
        #expect(winners.count == 1)
        #expect(try DurableFile.contents(of: path) == Data(repeating: winners.first ?? 0, count: 32))
        #expect(try DurableFile.createExclusively(path, with: [9]) == false)
        #expect(try DurableFile.contents(of: path)?.count == 32)
        #expect(try Self.leftovers(in: root + "/a").isEmpty)
    }

    @Test func replaceKeepingOpenAppendsThroughTheDescriptorItWrote() throws {
        let root = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let path = root + "/log"
        try DurableFile.replace(path, with: Array("old".utf8))
        let fd = try DurableFile.replaceKeepingOpen(path, with: Array("new".utf8))
        defer { close(fd) }
        #expect(DurableFile.writeAll(fd, Array("+more".utf8)))
        #expect(try DurableFile.contents(of: path) == Data("new+more".utf8))
        #expect(try Self.leftovers(in: root).isEmpty)
    }
}
