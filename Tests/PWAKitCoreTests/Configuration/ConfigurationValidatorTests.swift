import Foundation
import PWAKitRetry
import Testing

@testable import PWAKitCore

@Suite("Configuration validator")
struct ConfigurationValidatorTests {
    /// A valid document; each case below changes one part of it.
    static func document(
        version: String = "1",
        app: String = #"{"name": "Hello", "bundleId": "dev.pwakit.hello", "startUrl": "https://app.example.com/"}"#,
        origins: String = #"{"allowed": ["example.com", "*.example.com"], "external": ["github.com"]}"#,
        rest: String = ""
    ) -> String {
        #"{"version": \#(version), "app": \#(app), "origins": \#(origins)\#(rest)}"#
    }

    static func app(name: String = "\"Hello\"", bundleId: String = "\"dev.pwakit.hello\"", startUrl: String) -> String {
        #"{"name": \#(name), "bundleId": \#(bundleId), "startUrl": \#(startUrl)}"#
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var json: String
        /// Every issue expected, as "severity path code".
        var issues: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        .init(name: "valid", json: document(), issues: []),
        .init(
            name: "valid with every section",
            json: document(
                rest: #"""
                    , "$schema": "https://pwakit.dev/schema/v1.json",
                    "features": {"healthkit": true, "iap": false},
                    "appearance": {"displayMode": "fullscreen", "pullToRefresh": true, "statusBarStyle": "dark",
                                   "orientationLock": "portrait", "backgroundColor": "#ffffff", "themeColor": "#3B5BDB"},
                    "notifications": {"provider": "apns"}
                    """#), issues: []),
        .init(name: "app:// start URL", json: document(app: app(startUrl: #""app://hello/index.html""#)), issues: []),
        .init(
            name: "localhost start URL",
            json: document(
                app: app(startUrl: #""http://localhost:3000/""#), origins: #"{"allowed": ["localhost:3000"]}"#),
            issues: []),
        .init(
            name: "[::1] start URL",
            json: document(app: app(startUrl: #""http://[::1]:8080/""#), origins: #"{"allowed": ["[::1]"]}"#),
            issues: []),
        .init(name: "top level is not an object", json: "[1]", issues: ["error  wrong_type"]),
        .init(
            name: "version missing",
            json:
                #"{"app": {"name": "A", "bundleId": "a.b", "startUrl": "app://a/"}, "origins": {"allowed": ["a.com"]}}"#,
            issues: ["error version missing_field"]),
        .init(name: "version string", json: document(version: "\"1\""), issues: ["error version wrong_type"]),
        .init(name: "version fraction", json: document(version: "1.0"), issues: ["error version wrong_type"]),
        .init(name: "version 2", json: document(version: "2"), issues: ["error version unsupported_version"]),
        .init(name: "version huge", json: document(version: "1e999"), issues: ["error version wrong_type"]),
        .init(
            name: "app missing", json: #"{"version": 1, "origins": {"allowed": ["a.com"]}}"#,
            issues: ["error app missing_field"]),
        .init(name: "app wrong type", json: document(app: "\"Hello\""), issues: ["error app wrong_type"]),
        .init(
            name: "name empty", json: document(app: app(name: "\"  \"", startUrl: #""https://example.com/""#)),
            issues: ["error app.name empty"]),
        .init(
            name: "name number", json: document(app: app(name: "3", startUrl: #""https://example.com/""#)),
            issues: ["error app.name wrong_type"]),
        .init(
            name: "bundle id one part",
            json: document(app: app(bundleId: "\"hello\"", startUrl: #""https://example.com/""#)),
            issues: ["error app.bundleId invalid_bundle_id"]),
        .init(
            name: "bundle id empty part",
            json: document(app: app(bundleId: "\"com..hello\"", startUrl: #""https://example.com/""#)),
            issues: ["error app.bundleId invalid_bundle_id"]),
        .init(
            name: "bundle id path",
            json: document(app: app(bundleId: "\"com.example/../x\"", startUrl: #""https://example.com/""#)),
            issues: ["error app.bundleId invalid_bundle_id"]),
        .init(
            name: "bundle id missing", json: document(app: #"{"name": "A", "startUrl": "https://example.com/"}"#),
            issues: ["error app.bundleId missing_field"]),
        .init(
            name: "start URL not allowed", json: document(app: app(startUrl: #""https://other.org/""#)),
            issues: ["error app.startUrl start_url_not_allowed"]),
        .init(
            name: "start URL external",
            json: document(
                app: app(startUrl: #""https://github.com/x""#),
                origins: #"{"allowed": ["*.github.com"], "external": ["github.com"]}"#),
            issues: ["error app.startUrl start_url_not_allowed"]),
        .init(
            name: "start URL outside allowed path",
            json: document(
                app: app(startUrl: #""https://example.com/other""#), origins: #"{"allowed": ["example.com/app/*"]}"#),
            issues: ["error app.startUrl start_url_not_allowed"]),
        .init(
            name: "start URL on auth origin",
            json: document(
                app: app(startUrl: #""https://login.example.com/""#),
                origins: #"{"allowed": ["*.example.com"], "auth": ["login.example.com"]}"#),
            issues: ["warning app.startUrl start_url_not_allowed"]),
        .init(
            name: "start URL http", json: document(app: app(startUrl: #""http://example.com/""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "start URL ftp", json: document(app: app(startUrl: #""ftp://example.com/""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "start URL relative", json: document(app: app(startUrl: #""/index.html""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "start URL javascript", json: document(app: app(startUrl: #""javascript:alert(1)""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "start URL with space", json: document(app: app(startUrl: #""https://example.com/a b""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "app id uppercase", json: document(app: app(startUrl: #""app://Hello/""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "app id bad character", json: document(app: app(startUrl: #""app://hel_lo/""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "app id without path", json: document(app: app(startUrl: #""app://hello""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "app id with port", json: document(app: app(startUrl: #""app://hello:80/""#)),
            issues: ["error app.startUrl invalid_start_url"]),
        .init(
            name: "origins missing",
            json: #"{"version": 1, "app": {"name": "A", "bundleId": "a.b", "startUrl": "app://a/"}}"#,
            issues: ["error origins missing_field"]),
        .init(
            name: "allowed missing", json: document(app: app(startUrl: #""app://hello/""#), origins: "{}"),
            issues: ["error origins.allowed missing_field"]),
        .init(
            name: "allowed empty", json: document(app: app(startUrl: #""app://hello/""#), origins: #"{"allowed": []}"#),
            issues: ["error origins.allowed empty"]),
        .init(
            name: "allowed not array",
            json: document(app: app(startUrl: #""app://hello/""#), origins: #"{"allowed": "example.com"}"#),
            issues: ["error origins.allowed wrong_type"]),
        .init(
            name: "allowed element number", json: document(origins: #"{"allowed": ["*.example.com", 7]}"#),
            issues: ["error origins.allowed[1] wrong_type"]),
        .init(
            name: "bad patterns",
            json: document(
                origins:
                    #"{"allowed": ["*.example.com", "https://x.com", "*.", "a b"], "auth": ["-x.com"], "external": ["x..y"]}"#
            ),
            issues: [
                "error origins.allowed[1] invalid_pattern", "error origins.allowed[2] invalid_pattern",
                "error origins.allowed[3] invalid_pattern", "error origins.auth[0] invalid_pattern",
                "error origins.external[0] invalid_pattern",
            ]),
        .init(
            name: "allowed and external",
            json: document(origins: #"{"allowed": ["*.example.com", "GitHub.com"], "external": ["github.com"]}"#),
            issues: ["error origins.external[0] conflicting_pattern"]),
        .init(
            name: "duplicate pattern", json: document(origins: #"{"allowed": ["*.example.com", "*.EXAMPLE.com"]}"#),
            issues: ["warning origins.allowed[1] duplicate_pattern"]),
        .init(
            name: "grants valid",
            json: document(
                origins:
                    #"{"allowed": ["*.example.com"], "grants": {"example.com": ["haptics", "share.share"], "*.app.example.com": []}}"#
            ), issues: []),
        .init(
            name: "grants bad",
            json: document(
                origins:
                    #"{"allowed": ["*.example.com"], "grants": {"other.com": ["haptics"], "example.com/app/*": ["x"], "*.": ["x"], "example.com": ["haptics.", 3], "a.example.com": "haptics"}}"#
            ),
            issues: [
                "error origins.grants[\"other.com\"] grant_not_allowed",
                "error origins.grants[\"example.com/app/*\"] invalid_grant",
                "error origins.grants[\"*.\"] invalid_pattern",
                "error origins.grants[\"example.com\"][0] invalid_grant",
                "error origins.grants[\"example.com\"][1] wrong_type",
                "error origins.grants[\"a.example.com\"] wrong_type",
            ]),
        .init(
            name: "features wrong types",
            json: document(rest: #", "features": {"haptics": "yes", "iap": 1, "share": null, "warp": true}"#),
            issues: [
                "error features.haptics wrong_type", "error features.iap wrong_type", "error features.share wrong_type",
                "warning features.warp unknown_key",
            ]),
        .init(
            name: "features not object", json: document(rest: #", "features": true"#),
            issues: ["error features wrong_type"]),
        .init(
            name: "appearance bad",
            json: document(
                rest:
                    ##", "appearance": {"displayMode": "minimal-ui", "statusBarStyle": 1, "orientationLock": "upside", "pullToRefresh": "no", "backgroundColor": "#fff", "themeColor": "blue", "font": "x"}"##
            ),
            issues: [
                "error appearance.displayMode invalid_value", "error appearance.statusBarStyle wrong_type",
                "error appearance.orientationLock invalid_value", "error appearance.pullToRefresh wrong_type",
                "error appearance.backgroundColor invalid_color", "error appearance.themeColor invalid_color",
                "warning appearance.font unknown_key",
            ]),
        .init(
            name: "colour with alpha", json: document(rest: ##", "appearance": {"themeColor": "#11223344"}"##),
            issues: ["error appearance.themeColor invalid_color"]),
        .init(
            name: "notifications bad provider", json: document(rest: #", "notifications": {"provider": "fcm"}"#),
            issues: ["error notifications.provider invalid_value"]),
        .init(
            name: "notifications missing provider", json: document(rest: #", "notifications": {}"#),
            issues: ["error notifications.provider missing_field"]),
        .init(
            name: "notifications null", json: document(rest: #", "notifications": null"#),
            issues: ["error notifications wrong_type"]),
        .init(
            name: "unknown keys everywhere",
            json: document(
                app: #"{"name": "A", "bundleId": "a.b", "startUrl": "https://example.com/", "icon": "x"}"#,
                origins: #"{"allowed": ["example.com"], "blocked": []}"#, rest: #", "extra": {}"#),
            issues: [
                "warning app.icon unknown_key", "warning origins.blocked unknown_key", "warning extra unknown_key",
            ]),
        .init(
            name: "odd unknown key is quoted in the path", json: document(rest: #", "a b": 1"#),
            issues: ["warning [\"a b\"] unknown_key"]),
        .init(
            name: "duplicate keys", json: document(rest: #", "version": 1"#), issues: ["error version duplicate_key"]),
        .init(
            name: "schema not a string", json: document(rest: #", "$schema": 1"#), issues: ["error $schema wrong_type"]),
        .init(name: "malformed JSON", json: #"{"version": 1,"#, issues: ["error  invalid_json"]),
    ]

    @Test("reports exactly the expected issues", arguments: cases)
    func validate(_ row: Case) {
        let report = ConfigurationValidator().validate(Data(row.json.utf8))
        let found = report.issues.map { "\($0.severity.rawValue) \($0.path) \($0.code.rawValue)" }
        #expect(found.sorted() == row.issues.sorted(), "\(report.issues.map(\.description))")
        #expect(report.isValid == !row.issues.contains { $0.hasPrefix("error") })
    }

    @Test func reportsEveryProblemAtOnceWithPreciseMessages() {
        let json = Self.document(
            version: "3",
            app: Self.app(name: "\"\"", bundleId: "\"x\"", startUrl: #""https://nowhere.org/""#),
            origins: #"{"allowed": ["example.com", "ok.com", "*."]}"#,
            rest: ##", "appearance": {"themeColor": "#abc"}"##)
        let messages = ConfigurationValidator().validate(Data(json.utf8)).issues.map(\.description)
        #expect(messages.contains("version: unsupported version 3: this PWAKit understands version 1"))
        #expect(messages.contains("app.name: must not be empty"))
        #expect(messages.contains(#"origins.allowed[2]: "*.": empty label"#))
        #expect(
            messages.contains(
                #"app.startUrl: host "nowhere.org" of "https://nowhere.org/" is not matched by any pattern in origins.allowed"#
            ))
        #expect(
            messages.contains(##"appearance.themeColor: "#abc" is not a colour of the form #RRGGBB; write "#AABBCC""##))
        #expect(messages.contains { $0.hasPrefix("app.bundleId: \"x\" is not reverse-DNS") })
        #expect(messages.count == 6)
    }

    @Test func wrongTypeNamesTheExpectedType() {
        let json = Self.document(rest: #", "features": {"haptics": [1]}"#)
        let issue = ConfigurationValidator().validate(Data(json.utf8)).issues.first
        #expect(issue?.description == "features.haptics: expected a boolean, found array")
    }

    @Test func oversizedDocumentIsRejectedBeforeParsing() {
        let data = Data(repeating: UInt8(ascii: " "), count: ConfigurationValidator.maximumSize + 1)
        let report = ConfigurationValidator().validate(data)
        #expect(report.issues.map(\.code) == [.tooLarge])
        let atLimit =
            Data(Self.document().utf8)
            + Data(repeating: UInt8(ascii: " "), count: ConfigurationValidator.maximumSize - Self.document().utf8.count)
        #expect(ConfigurationValidator().validate(atLimit).isValid)
    }

    @Test func hostileStringsAreQuotedAndCut() {
        let long = String(repeating: "x", count: 10_000)
        let json = Self.document(rest: #", "\#(long)\u0000": 1"#)
        let issue = ConfigurationValidator().validate(Data(json.utf8)).issues.first
        let description = issue?.description ?? ""
        #expect(description.count < 300)
        #expect(!description.contains("\u{0}"))
    }

    @Test func randomMutationsNeverCrashTheValidator() {
        var generator = SeededRandom(seed: 42)
        let base = Array(
            Self.document(rest: ##", "features": {"iap": true}, "appearance": {"themeColor": "#112233"}"##).utf8)
        var invalid = 0
        for _ in 0..<1_000 {
            var bytes = base
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let index = Int(generator.next() % UInt64(bytes.count))
                bytes[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            let report = ConfigurationValidator().validate(Data(bytes))
            if !report.isValid {
                invalid += 1
                #expect(!report.errors.isEmpty)
            }
        }
        #expect(invalid > 0)
    }

    @Test func validatesConfigurationValues() {
        var configuration = PWAConfiguration(
            app: AppSection(name: "A", bundleId: "com.example.a", startUrl: "https://example.com/"),
            origins: OriginsSection(allowed: ["example.com"]))
        #expect(ConfigurationValidator().validate(configuration).isValid)
        configuration.origins.allowed = ["*."]
        let report = ConfigurationValidator().validate(configuration)
        #expect(report.errors.map(\.path) == ["origins.allowed[0]"])
        configuration.origins.allowed = ["other.com", "*."]
        #expect(
            ConfigurationValidator().validate(configuration).errors.map(\.path).sorted() == [
                "app.startUrl", "origins.allowed[1]",
            ])
    }

    @Test func bundleIdRules() {
        #expect(ConfigurationValidator.bundleIdProblem("dev.pwakit.hello") == nil)
        #expect(ConfigurationValidator.bundleIdProblem("com.example.my-app2") == nil)
        #expect(ConfigurationValidator.bundleIdProblem("") != nil)
        #expect(ConfigurationValidator.bundleIdProblem("com.exa mple") != nil)
        #expect(ConfigurationValidator.bundleIdProblem("com.example.") != nil)
        #expect(ConfigurationValidator.bundleIdProblem("com.ex_ample") != nil)
        #expect(ConfigurationValidator.bundleIdProblem("com.éxample") != nil)
        #expect(ConfigurationValidator.bundleIdProblem("a." + String(repeating: "b", count: 200)) != nil)
    }
}
