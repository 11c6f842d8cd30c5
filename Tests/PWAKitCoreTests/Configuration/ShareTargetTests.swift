import Foundation
import Testing

@testable import PWAKitCore

@Suite("shareTarget: the configuration's share target")
struct ShareTargetTests {
    static func issues(_ shareTarget: String) -> [String] {
        let json = ConfigurationValidatorTests.document(rest: ", \"shareTarget\": \(shareTarget)")
        return ConfigurationValidator().validate(Data(json.utf8)).issues.map {
            "\($0.severity.rawValue) \($0.path) \($0.code.rawValue)"
        }
    }

    @Test(
        "every problem names its field",
        arguments: [
            (#"{"action": "/share", "params": {"url": "u"}}"#, []),
            (
                #"{"action": "/share?x=1", "method": "get", "enctype": "application/x-www-form-urlencoded", "params": {"title": "t", "text": "x", "url": "u"}}"#,
                []
            ),
            (#""/share""#, ["error shareTarget wrong_type"]),
            (#"{"params": {"url": "u"}}"#, ["error shareTarget.action missing_field"]),
            (#"{"action": "share", "params": {"url": "u"}}"#, ["error shareTarget.action invalid_value"]),
            (#"{"action": "//evil.example/share", "params": {"url": "u"}}"#, ["error shareTarget.action invalid_value"]),
            (#"{"action": "/a b", "params": {"url": "u"}}"#, ["error shareTarget.action invalid_value"]),
            (#"{"action": "/a#b", "params": {"url": "u"}}"#, ["error shareTarget.action invalid_value"]),
            (#"{"action": 5, "params": {"url": "u"}}"#, ["error shareTarget.action wrong_type"]),
            (#"{"action": "/s", "method": "POST", "params": {"url": "u"}}"#, ["error shareTarget.method invalid_value"]),
            (#"{"action": "/s", "method": 1, "params": {"url": "u"}}"#, ["error shareTarget.method wrong_type"]),
            (
                #"{"action": "/s", "enctype": "multipart/form-data", "params": {"url": "u"}}"#,
                ["error shareTarget.enctype invalid_value"]
            ),
            (#"{"action": "/s"}"#, ["error shareTarget.params missing_field"]),
            (#"{"action": "/s", "params": {}}"#, ["error shareTarget.params missing_field"]),
            (#"{"action": "/s", "params": []}"#, ["error shareTarget.params wrong_type"]),
            (#"{"action": "/s", "params": {"url": "a&b"}}"#, ["error shareTarget.params.url invalid_value"]),
            (#"{"action": "/s", "params": {"url": 3}}"#, ["error shareTarget.params.url wrong_type"]),
            (#"{"action": "/s", "params": {"url": "u", "files": []}}"#, ["error shareTarget.params.files invalid_value"]),
            (
                #"{"action": "/s", "params": {"url": "u", "extra": "e"}, "other": 1}"#,
                ["warning shareTarget.params.extra unknown_key", "warning shareTarget.other unknown_key"]
            ),
            (#"{"action": "/s", "action": "/t", "params": {"url": "u"}}"#, ["error shareTarget.action duplicate_key"]),
        ] as [(String, [String])])
    func validation(_ json: String, _ expected: [String]) {
        #expect(Self.issues(json).sorted() == expected.sorted(), "\(json)")
    }

    @Test("an oversized action is refused")
    func oversized() {
        let action = "/" + String(repeating: "a", count: 600)
        #expect(Self.issues(#"{"action": "\#(action)", "params": {"url": "u"}}"#) == ["error shareTarget.action invalid_value"])
    }

    @Test("the page URL carries each value form-encoded under its parameter, on the start page's origin")
    func pageURL() throws {
        let target = ShareTargetSection(action: "/share?from=x", params: ShareTargetParams(title: "t", url: "u"))
        #expect(
            target.pageURL(
                startURL: "https://app.example.com:8443/start/index.html", title: "Café & co", text: "ignored",
                url: "https://a.b/?q=1 2")
                == "https://app.example.com:8443/share?from=x&t=Caf%C3%A9+%26+co&u=https%3A%2F%2Fa.b%2F%3Fq%3D1+2")
        #expect(target.pageURL(startURL: "app://notes/index.html", title: nil, text: nil, url: nil) == "app://notes/share?from=x")
        #expect(target.pageURL(startURL: "not a url", title: nil, text: nil, url: "x") == nil)
        #expect(ShareTargetSection.formEncoded("a*b-c._d~e/f\n") == "a*b-c._d%7Ee%2Ff%0A")
    }

    @Test("a configuration with a shareTarget loads and writes back the same")
    func roundTrip() throws {
        let json = ConfigurationValidatorTests.document(
            rest: #", "shareTarget": {"action": "/share", "method": "GET", "params": {"text": "x", "url": "u"}}"#)
        let configuration = try ConfigurationLoader.load(from: Data(json.utf8))
        #expect(
            configuration.shareTarget == ShareTargetSection(action: "/share", method: "GET", params: .init(text: "x", url: "u")))
        #expect(try ConfigurationLoader.load(from: configuration.encodedJSON()) == configuration)
    }

    @Test("a manifest's GET share_target is imported; POST, files and other origins are noted and left out")
    func manifestImport() throws {
        let manifest = try WebAppManifest(
            data: Data(
                #"{"name": "Notes", "start_url": "/app/", "share_target": {"action": "share?via=pwa", "params": {"title": "t", "url": "link"}}}"#
                    .utf8))
        let result = try ManifestImport.makeConfiguration(manifest: manifest, options: .init(origin: "https://notes.example.com"))
        #expect(
            result.configuration.shareTarget
                == ShareTargetSection(action: "/app/share?via=pwa", params: .init(title: "t", url: "link")))
        for (target, note) in [
            (#"{"action": "/s", "method": "POST", "params": {"url": "u"}}"#, "method is POST"),
            (#"{"action": "/s", "params": {"url": "u", "files": [{"name": "f", "accept": ["image/*"]}]}}"#, "takes files"),
            (#"{"action": "https://elsewhere.example/s", "params": {"url": "u"}}"#, "not on the start URL's origin"),
            (#"{"action": "/s", "params": {"url": "a b"}}"#, "not a plain parameter name"),
        ] {
            let other = try WebAppManifest(data: Data(#"{"name": "Notes", "start_url": "/", "share_target": \#(target)}"#.utf8))
            let imported = try ManifestImport.makeConfiguration(
                manifest: other, options: .init(origin: "https://notes.example.com"))
            #expect(imported.configuration.shareTarget == nil)
            #expect(
                imported.notes.contains { $0.hasPrefix("share_target not imported") && $0.contains(note) }, "\(imported.notes)")
        }
        #expect(throws: ConfigurationError.self) {
            try WebAppManifest(data: Data(#"{"name": "N", "share_target": {"action": 3}}"#.utf8))
        }
        #expect(throws: ConfigurationError.self) {
            try WebAppManifest(data: Data(#"{"name": "N", "share_target": "x"}"#.utf8))
        }
    }
}
