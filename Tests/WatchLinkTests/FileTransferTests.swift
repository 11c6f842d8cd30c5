import Foundation
import Testing

@testable import WatchLink

/// Descriptor checks, reading the sender's file and the receiver's inbox; no transport involved.
@Suite struct FileTransferTests {
    static func scratch() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("wl-files-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func write(_ text: String, named name: String, in folder: URL) throws -> URL {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url
    }

    func field(of body: () throws(WatchLinkError) -> Void) -> (WatchLinkError.Code, String?)? {
        do throws(WatchLinkError) {
            try body()
            return nil
        } catch {
            return (error.code, error.details["field"])
        }
    }

    @Test(arguments: [
        "", ".", "..", "../x", "a/b", "..\\x", ".hidden", "a\u{0}b", "line\nbreak", String(repeating: "n", count: 256),
    ])
    func hostileNamesAreRefused(_ name: String) {
        let result = field { () throws(WatchLinkError) in try FileTransfer.validateName(name) }
        #expect(result?.0 == .invalidArgument)
        #expect(result?.1 == "fileName")
    }

    @Test func plainNamesPass() throws {
        for name in ["photo.jpg", "Workout 12 (copy).gpx", "été.txt", "a..b", String(repeating: "n", count: 255)] {
            try FileTransfer.validateName(name)
        }
    }

    @Test func metadataIsBounded() {
        #expect(field { () throws(WatchLinkError) in try FileTransfer.validateMetadata(["": "x"]) }?.1 == "metadata")
        let many = Dictionary(uniqueKeysWithValues: (0...64).map { ("k\($0)", "v") })
        #expect(field { () throws(WatchLinkError) in try FileTransfer.validateMetadata(many) }?.1 == "metadata")
        let large = ["blob": String(repeating: "x", count: SessionLimits.fileMetadata)]
        #expect(
            field { () throws(WatchLinkError) in try FileTransfer.validateMetadata(large) }?.0 == .payloadTooLarge)
    }

    @Test func descriptorRoundTripsAndHostileDescriptorsNameTheField() throws {
        let transfer = FileTransfer(id: UUID(), fileName: "run.gpx", metadata: ["kind": "route"], size: 12)
        #expect(try FileTransfer.decodeDescriptor(transfer.encoded()) == transfer)
        let id = UUID().uuidString
        let cases: [(String, String)] = [
            ("not json", "descriptor"),
            ("[1, 2]", "descriptor"),
            (#"{"fileName": "a", "metadata": {}, "size": 1}"#, "id"),
            (#"{"id": "nope", "fileName": "a", "metadata": {}, "size": 1}"#, "id"),
            (#"{"id": "\#(id)", "fileName": "../../etc/passwd", "metadata": {}, "size": 1}"#, "fileName"),
            (#"{"id": "\#(id)", "fileName": "/abs", "metadata": {}, "size": 1}"#, "fileName"),
            (#"{"id": "\#(id)", "fileName": 7, "metadata": {}, "size": 1}"#, "fileName"),
            (#"{"id": "\#(id)", "fileName": "a", "metadata": {"k": 1}, "size": 1}"#, "metadata"),
            (#"{"id": "\#(id)", "fileName": "a", "metadata": "k=v", "size": 1}"#, "metadata"),
            (#"{"id": "\#(id)", "fileName": "a", "metadata": {"": "v"}, "size": 1}"#, "metadata"),
            (#"{"id": "\#(id)", "fileName": "a", "metadata": {}, "size": -1}"#, "size"),
            (#"{"id": "\#(id)", "fileName": "a", "metadata": {}, "size": 1.5}"#, "size"),
            (#"{"id": "\#(id)", "fileName": "a", "metadata": {}}"#, "size"),
        ]
        for (json, expected) in cases {
            let result = field { () throws(WatchLinkError) in _ = try FileTransfer.decodeDescriptor(Data(json.utf8)) }
            #expect(result?.0 == .invalidEnvelope, "\(json)")
            #expect(result?.1 == expected, "\(json)")
        }
        let huge = #"{"id": "\#(id)", "fileName": "a", "metadata": {}, "size": \#(SessionLimits.file + 1)}"#
        let oversized = field { () throws(WatchLinkError) in _ = try FileTransfer.decodeDescriptor(Data(huge.utf8)) }
        #expect(oversized?.0 == .payloadTooLarge)
        #expect(oversized?.1 == "file")
    }

    @Test func unreadableAndOversizedFilesAreRefusedAtTheCall() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let missing = folder.appendingPathComponent("missing.txt")
        let open = { (url: URL, metadata: [String: String]) in
            self.field { () throws(WatchLinkError) in _ = try FileTransfer.readAll(url, metadata: metadata, id: UUID()) }
        }
        #expect(open(missing, [:])?.0 == .fileUnreadable)
        #expect(open(missing, [:])?.1 == "file")
        let directory = folder.appendingPathComponent("dir")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        #expect(open(directory, [:])?.0 == .fileUnreadable)
        let big = folder.appendingPathComponent("big.bin")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(SessionLimits.file + 1))
        try handle.close()
        #expect(open(big, [:])?.0 == .payloadTooLarge)
        #expect(open(big, [:])?.1 == "file")
        let fine = try Self.write("hello", named: "fine.txt", in: folder)
        #expect(open(fine, ["": "x"])?.1 == "metadata")
        #expect(open(URL(string: "https://example.com/a.txt")!, [:])?.1 == "file")
        let (transfer, data) = try FileTransfer.readAll(fine, metadata: ["k": "v"], id: UUID())
        #expect(transfer.size == 5 && data == Data("hello".utf8) && transfer.fileName == "fine.txt")
    }

    @Test func inboxKeepsEachTransferOnceAndSurvivesReopening() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.write("payload", named: "incoming.txt", in: folder)
        let inbox = try FileInbox(directory: folder.appendingPathComponent("inbox"))
        let transfer = FileTransfer(id: UUID(), fileName: "report.txt", metadata: ["k": "v"], size: 7)
        let accepted = try #require(try inbox.accept(ReceivedFile(transfer: transfer, url: source)))
        #expect(accepted.url == inbox.url(for: transfer))
        #expect(try Data(contentsOf: accepted.url) == Data("payload".utf8))
        #expect(try inbox.accept(ReceivedFile(transfer: transfer, url: source)) == nil)
        let reopened = try FileInbox(directory: inbox.directory)
        #expect(try reopened.files() == [accepted])
        reopened.remove(transfer.id)
        #expect(try reopened.files().isEmpty)
        #expect(try reopened.accept(ReceivedFile(transfer: transfer, url: source)) == nil, "a removed file stays known")
    }

    @Test func pruningForgetsOnlyTransfersRemovedBeforeTheDate() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.write("payload", named: "incoming.txt", in: folder)
        let inbox = try FileInbox(directory: folder.appendingPathComponent("inbox"))
        func receive(_ name: String) throws -> FileTransfer {
            let transfer = FileTransfer(id: UUID(), fileName: name, metadata: [:], size: 7)
            _ = try #require(try inbox.accept(ReceivedFile(transfer: transfer, url: source)))
            return transfer
        }
        let old = try receive("old.txt")
        let recent = try receive("recent.txt")
        let kept = try receive("kept.txt")
        inbox.remove(old.id)
        inbox.remove(recent.id)
        let longAgo = Date(timeIntervalSinceNow: -30 * 86_400)
        for transfer in [old, kept] {
            try FileManager.default.setAttributes(
                [.modificationDate: longAgo], ofItemAtPath: inbox.directory.appendingPathComponent(transfer.id.uuidString).path)
        }
        #expect(inbox.pruneRemoved(before: Date(timeIntervalSinceNow: -7 * 86_400)) == 1)
        #expect(try inbox.files().map(\.transfer.id) == [kept.id], "a file not yet removed is never pruned")
        #expect(try inbox.accept(ReceivedFile(transfer: recent, url: source)) == nil, "a recent record still recognises it")
        #expect(try inbox.accept(ReceivedFile(transfer: old, url: source)) != nil, "a pruned one is accepted as new")
        #expect(inbox.pruneRemoved(before: Date()) == 1, "only the recent record was left to prune")
    }

    @Test func inboxRefusesHostileDescriptorsAndShortFiles() throws {
        let folder = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try Self.write("payload", named: "incoming.txt", in: folder)
        let inbox = try FileInbox(directory: folder.appendingPathComponent("inbox"))
        let traversal = FileTransfer(id: UUID(), fileName: "../escaped.txt", metadata: [:], size: 7)
        let refused = field { () throws(WatchLinkError) in _ = try inbox.accept(ReceivedFile(transfer: traversal, url: source)) }
        #expect(refused?.0 == .invalidEnvelope && refused?.1 == "fileName")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("escaped.txt").path))
        let short = FileTransfer(id: UUID(), fileName: "short.txt", metadata: [:], size: 8)
        let mismatch = field { () throws(WatchLinkError) in _ = try inbox.accept(ReceivedFile(transfer: short, url: source)) }
        #expect(mismatch?.1 == "size")
        #expect(try inbox.files().isEmpty)
        let gone = FileTransfer(id: UUID(), fileName: "gone.txt", metadata: [:], size: 1)
        let missing = field { () throws(WatchLinkError) in
            _ = try inbox.accept(ReceivedFile(transfer: gone, url: folder.appendingPathComponent("nothing")))
        }
        #expect(missing?.0 == .storageFailed)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: inbox.directory.path)
        #expect(leftovers.isEmpty, "no staging left behind: \(leftovers)")
    }
}
