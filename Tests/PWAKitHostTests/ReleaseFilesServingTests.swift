import Foundation
import PWAKitBundles
import Testing

@testable import PWAKitHost

/// `app://<appId>/` served from a release in a content-addressed store: only the manifest's
/// paths, with its media types and hashes.
@Suite struct ReleaseFilesServingTests {
    let directory: URL
    let server: LocalBundleServer

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-release-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let files: [(String, String, String)] = [
            ("index.html", "<title>quiz</title>", "text/html; charset=utf-8"),
            ("assets/app.js", "console.log('quiz')", "text/javascript; charset=utf-8"),
            ("docs/index.html", "<title>docs</title>", "text/html; charset=utf-8"),
            ("data.bin", "0123456789", "application/x-quiz"),
        ]
        var entries: [ManifestFile] = []
        for (path, text, type) in files {
            let hash = String(repeating: String(entries.count), count: 64)
            try Data(text.utf8).write(to: directory.appendingPathComponent(hash))
            entries.append(ManifestFile(path: path, sha256: hash, size: text.utf8.count, contentType: type))
        }
        let manifest = ReleaseManifest(appId: "quiz", version: "1.0.0", channel: "stable", entry: "index.html", files: entries)
        let blobs = directory
        server = LocalBundleServer(appID: "quiz", release: ReleaseFiles(manifest: manifest) { blobs.appendingPathComponent($0) })
    }

    @Test func servesTheManifestsFilesWithItsTypesAndHashes() throws {
        let script = server.respond(to: LocalBundleRequest(uri: "app://quiz/assets/app.js"))
        #expect(script.status == 200)
        #expect(String(decoding: script.body, as: UTF8.self) == "console.log('quiz')")
        #expect(script.contentType == "text/javascript; charset=utf-8")
        #expect(script.headers["ETag"] == "\"" + String(repeating: "1", count: 64) + "\"")
        #expect(server.respond(to: LocalBundleRequest(uri: "app://quiz/data.bin")).contentType == "application/x-quiz")
        let again = server.respond(
            to: LocalBundleRequest(uri: "app://quiz/assets/app.js", headers: ["If-None-Match": script.headers["ETag"]!]))
        #expect(again.status == 304)
        let range = server.respond(to: LocalBundleRequest(uri: "app://quiz/data.bin", headers: ["range": "bytes=2-4"]))
        #expect(range.status == 206)
        #expect(String(decoding: range.body, as: UTF8.self) == "234")
    }

    @Test func directoriesAndRoutesGetTheirIndex() {
        #expect(
            String(decoding: server.respond(to: LocalBundleRequest(uri: "app://quiz/")).body, as: UTF8.self)
                == "<title>quiz</title>")
        #expect(
            String(decoding: server.respond(to: LocalBundleRequest(uri: "app://quiz/docs/")).body, as: UTF8.self)
                == "<title>docs</title>")
        #expect(
            String(decoding: server.respond(to: LocalBundleRequest(uri: "app://quiz/play/level/3")).body, as: UTF8.self)
                == "<title>quiz</title>")
    }

    @Test(arguments: [
        "app://quiz/missing.css", "app://quiz/../quiz/index.html.bak", "app://quiz/%2e%2e/etc/passwd",
        "app://quiz/" + String(repeating: "1", count: 64) + ".js", "app://other/index.html",
    ])
    func nothingOutsideTheManifestIsServed(_ uri: String) {
        let response = server.respond(to: LocalBundleRequest(uri: uri))
        #expect([403, 404].contains(response.status), "\(uri): \(response.status)")
    }

    @Test func aBlobsNameIsARouteNotItsFile() {
        let response = server.respond(to: LocalBundleRequest(uri: "app://quiz/" + String(repeating: "1", count: 64)))
        #expect(String(decoding: response.body, as: UTF8.self) == "<title>quiz</title>")
    }
}
