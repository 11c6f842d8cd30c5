import Foundation
import PWAKitBundles
import Testing

@Suite("Manifest coding")
struct ManifestCodingTests {
    static let hash = String(repeating: "ab", count: 32)

    static func manifest(files: [ManifestFile]? = nil, entry: String = "index.html") -> ReleaseManifest {
        ReleaseManifest(
            appId: "quiz", version: "1.2.3", channel: "stable", entry: entry,
            files: files ?? [
                ManifestFile(path: "index.html", sha256: hash, size: 10, contentType: "text/html; charset=utf-8"),
                ManifestFile(path: "a/app.js", sha256: hash, size: 3, contentType: "text/javascript; charset=utf-8"),
            ])
    }

    @Test("canonical encoding is deterministic, key-sorted and file-sorted")
    func canonical() throws {
        let one = try ManifestCoding.encode(Self.manifest())
        let two = try ManifestCoding.encode(
            ReleaseManifest(
                appId: "quiz", version: "1.2.3", channel: "stable", entry: "index.html", files: Self.manifest().files.reversed()))
        #expect(one == two)
        let text = String(decoding: one, as: UTF8.self)
        #expect(text.hasPrefix(#"{"appId":"quiz","channel":"stable","entry":"index.html","files":[{"contentType""#))
        #expect(text.range(of: "a/app.js")!.lowerBound < text.range(of: "\"index.html\",\"sha256\"")!.lowerBound)
        #expect(!text.contains("\n") && !text.contains("\": ") && !text.contains(", \""))
        #expect(try ManifestCoding.decode(one).files.count == 2)
    }

    @Test(
        "every invalid field is named",
        arguments: [
            (#"{"format":1}"#, "appId"),
            (#"not json"#, ""),
            (#"[]"#, ""),
            (#"{"format":"1","appId":"a","version":"1.0.0","channel":"s","entry":"i","files":[]}"#, "format"),
        ])
    func decodeErrors(json: String, field: String) {
        do {
            _ = try ManifestCoding.decode(Data(json.utf8))
            Issue.record("decoded \(json)")
        } catch let error as BundleError {
            #expect(error.code == .malformedManifest)
            #expect((error.field ?? "") == field)
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("validation rules name the field")
    func validation() {
        func field(_ manifest: ReleaseManifest) -> String? {
            do { try ManifestCoding.validate(manifest); return nil } catch let error as BundleError { return error.field } catch {
                return "?"
            }
        }
        var m = Self.manifest()
        m.format = 2
        #expect(field(m) == "format")
        m = Self.manifest(); m.appId = "Quiz!"
        #expect(field(m) == "appId")
        for bad in ["1.2", "01.2.3", "1.2.3-beta", "1.2.3.4", "1000000.0.0", "-1.0.0", "a.b.c"] {
            m = Self.manifest(); m.version = bad
            #expect(field(m) == "version", "\(bad)")
        }
        m = Self.manifest(); m.channel = ""
        #expect(field(m) == "channel")
        #expect(field(Self.manifest(files: [])) == "files")
        for bad in ["../x", "/abs", "a//b", "a/./b", "a\\b", "", "a\u{0000}b"] {
            let files = [
                ManifestFile(path: "index.html", sha256: Self.hash, size: 1, contentType: "text/html"),
                ManifestFile(path: bad, sha256: Self.hash, size: 1, contentType: "text/html"),
            ]
            #expect(field(Self.manifest(files: files)) == "files[1].path", "\(bad)")
        }
        let duplicate = [
            ManifestFile(path: "index.html", sha256: Self.hash, size: 1, contentType: "text/html"),
            ManifestFile(path: "index.html", sha256: Self.hash, size: 1, contentType: "text/html"),
        ]
        #expect(field(Self.manifest(files: duplicate)) == "files[1].path")
        let badHash = [ManifestFile(path: "index.html", sha256: Self.hash.uppercased(), size: 1, contentType: "text/html")]
        #expect(field(Self.manifest(files: badHash)) == "files[0].sha256")
        let badSize = [ManifestFile(path: "index.html", sha256: Self.hash, size: -1, contentType: "text/html")]
        #expect(field(Self.manifest(files: badSize)) == "files[0].size")
        let badType = [ManifestFile(path: "index.html", sha256: Self.hash, size: 1, contentType: "html")]
        #expect(field(Self.manifest(files: badType)) == "files[0].contentType")
        #expect(field(Self.manifest(entry: "missing.html")) == "entry")
        #expect(field(Self.manifest()) == nil)
    }

    @Test("oversized manifests are refused before parsing")
    func oversized() throws {
        // NB: a valid manifest padded with whitespace, which JSON allows: only the size can refuse it.
        let valid = try ManifestCoding.encode(Self.manifest())
        func padded(to size: Int) -> Data { valid + Data(repeating: 0x20, count: size - valid.count) }
        #expect(try ManifestCoding.decode(padded(to: ManifestCoding.maximumManifestSize)) == ManifestCoding.decode(valid))
        let error = #expect(throws: BundleError.self) {
            try ManifestCoding.decode(padded(to: ManifestCoding.maximumManifestSize + 1))
        }
        #expect(error?.code == .malformedManifest)
        #expect(error?.field == "manifest")
        #expect(error?.message.contains("larger than \(ManifestCoding.maximumManifestSize) bytes") == true)
    }
}

@Suite("Semantic versions")
struct SemanticVersionTests {
    @Test("parse and order")
    func ordering() throws {
        let versions = try ["0.0.1", "0.1.0", "0.10.0", "1.0.0", "1.2.10", "10.0.0"].map { try #require(SemanticVersion($0)) }
        #expect(versions == versions.sorted())
        #expect(versions.map(\.orderingKey) == versions.map(\.orderingKey).sorted())
        #expect(SemanticVersion("999999.999999.999999")!.orderingKey > SemanticVersion("999999.999999.999998")!.orderingKey)
        #expect(SemanticVersion("1.2.3")?.description == "1.2.3")
        #expect(SemanticVersion(" 1.2.3") == nil)
        #expect(SemanticVersion("１.2.3") == nil)
    }
}
