import Foundation
import Testing

@testable import PWAKitHost

/// A bundle directory made for one test, removed afterwards.
final class BundleFixture {
    let root: URL
    let outside: URL

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-bundle-\(UUID().uuidString)")
        root = base.appendingPathComponent("app")
        outside = base.appendingPathComponent("secret")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("<!doctype html><title>home</title>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("console.log(1)".utf8).write(to: root.appendingPathComponent("assets/app.js"))
        try Data((0..<100).map { UInt8($0) }).write(to: root.appendingPathComponent("assets/clip.mp4"))
        try Data("top secret".utf8).write(to: outside.appendingPathComponent("key.txt"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("leak.txt"), withDestinationURL: outside.appendingPathComponent("key.txt"))
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent("leakdir"), withDestinationURL: outside)
    }

    deinit { try? FileManager.default.removeItem(at: root.deletingLastPathComponent()) }

    var server: LocalBundleServer { LocalBundleServer(appID: "hello", root: root) }
}

@Suite struct LocalBundleServerTests {
    @Test func servesFilesWithContentTypesAndValidators() throws {
        let fixture = try BundleFixture()
        let response = fixture.server.respond(to: LocalBundleRequest(uri: "app://hello/assets/app.js?v=2#x"))
        #expect(response.status == 200)
        #expect(response.contentType == "text/javascript; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self) == "console.log(1)")
        #expect(response.headers["Cache-Control"] == "no-cache")
        #expect(response.headers["Accept-Ranges"] == "bytes")
        #expect(response.headers["Content-Length"] == "14")
        let etag = try #require(response.headers["ETag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        let again = fixture.server.respond(
            to: LocalBundleRequest(uri: "app://hello/assets/app.js", headers: ["If-None-Match": "\"x\", \(etag)"]))
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        let head = fixture.server.respond(to: LocalBundleRequest(method: "HEAD", uri: "app://hello/assets/app.js"))
        #expect(head.status == 200 && head.body.isEmpty && head.headers["Content-Length"] == "14")
    }

    @Test func directoriesAndRoutesGetTheIndex() throws {
        let fixture = try BundleFixture()
        for uri in ["app://hello/", "app://hello", "app://hello/settings/profile", "app://hello/assets/"] {
            let response = fixture.server.respond(to: LocalBundleRequest(uri: uri))
            #expect(response.status == (uri.hasSuffix("assets/") ? 404 : 200), "\(uri)")
        }
        #expect(
            String(decoding: fixture.server.respond(to: LocalBundleRequest(uri: "app://hello/deep/route")).body, as: UTF8.self)
                .contains("<title>home</title>"))
        // A missing asset (it has an extension) is a 404, not the index.
        let missing = fixture.server.respond(to: LocalBundleRequest(uri: "app://hello/assets/missing.css"))
        #expect(missing.status == 404)
        #expect(missing.contentType.hasPrefix("text/html"))
        #expect(!String(decoding: missing.body, as: UTF8.self).contains(fixture.root.path))
    }

    @Test(arguments: [
        "app://hello/../secret/key.txt", "app://hello/%2e%2e/secret/key.txt", "app://hello/%2E%2E/secret/key.txt",
        "app://hello/assets/%2e%2e%2f..%2fsecret/key.txt", "app://hello/..%5csecret%5ckey.txt",
        "app://hello/assets/..", "app://hello/./index.html", "app://hello/%00index.html", "app://hello/%zz",
        "app://hello/%c3%28", "app://hello/leak.txt", "app://hello/leakdir/key.txt",
    ])
    func traversalIsRefused(uri: String) throws {
        let fixture = try BundleFixture()
        let response = fixture.server.respond(to: LocalBundleRequest(uri: uri))
        #expect(response.status == 403, "\(uri) → \(response.status)")
        #expect(!String(decoding: response.body, as: UTF8.self).contains("top secret"))
    }

    @Test func otherAppsMethodsAndHugePathsAreRefused() throws {
        let fixture = try BundleFixture()
        #expect(fixture.server.respond(to: LocalBundleRequest(uri: "app://other/index.html")).status == 404)
        #expect(fixture.server.respond(to: LocalBundleRequest(uri: "https://hello/index.html")).status == 404)
        let post = fixture.server.respond(to: LocalBundleRequest(method: "POST", uri: "app://hello/index.html"))
        #expect(post.status == 405 && post.headers["Allow"] == "GET, HEAD")
        let long = "app://hello/" + String(repeating: "a/", count: 5000)
        #expect(fixture.server.respond(to: LocalBundleRequest(uri: long)).status == 403)
    }

    @Test func rangesServeMedia() throws {
        let fixture = try BundleFixture()
        func get(_ range: String) -> LocalBundleResponse {
            fixture.server.respond(to: LocalBundleRequest(uri: "app://hello/assets/clip.mp4", headers: ["Range": range]))
        }
        let part = get("bytes=10-19")
        #expect(part.status == 206)
        #expect(part.headers["Content-Range"] == "bytes 10-19/100")
        #expect(Array(part.body) == Array(10..<20).map { UInt8($0) })
        #expect(get("bytes=90-").body.count == 10)
        #expect(get("bytes=-5").headers["Content-Range"] == "bytes 95-99/100")
        #expect(get("bytes=50-5000").headers["Content-Range"] == "bytes 50-99/100")
        let beyond = get("bytes=100-")
        #expect(beyond.status == 416 && beyond.headers["Content-Range"] == "bytes */100")
        // Several ranges, another unit or garbage: the whole file, as the RFC allows.
        for header in ["bytes=0-1,5-6", "items=0-1", "bytes=x-y", "bytes=5-1", "bytes=99999999999999999999-"] {
            #expect(get(header).status == 200, "\(header)")
        }
    }
}
