import Foundation
import PWAKitCore
import Testing

@testable import PWAKitAppleFiles

@Suite("Apple files from the configuration")
struct AppleFilesTests {
    static func configuration(
        features: [String: Bool] = ["notifications": true, "biometrics": true],
        identifiers: String = Self.identifiers, allowed: String = #""notes.example.com", "*.example.com""#
    ) throws -> PWAConfiguration {
        try ConfigurationLoader.load(
            from: Data(
                """
                {"version": 1, "app": {"name": "Notes", "bundleId": "com.example.notes", "startUrl": "https://notes.example.com/"},
                 "origins": {"allowed": [\(allowed)], "auth": ["accounts.example.org"]},
                 "features": {\(FeatureFlags.names.map { "\"\($0)\": \(features[$0] ?? false)" }.joined(separator: ", "))},
                 "identifiers": \(identifiers)}
                """.utf8))
    }

    static let identifiers = """
        {"teamId": "A1B2C3D4E5", "urlScheme": "notes", "appGroup": "group.com.example.notes",
         "keychainGroup": "com.example.shared", "associatedDomains": ["applinks:notes.example.com", "webcredentials:notes.example.com"],
         "linkPathPrefix": "/open", "extensions": {"share": "com.example.notes.share"},
         "usageDescriptions": {"NSFaceIDUsageDescription": "Unlock your notes."},
         "collectedData": [{"type": "ProductInteraction", "linked": false, "tracking": false, "purposes": ["Analytics"]}]}
        """

    /// A property list parsed by Foundation, independently of the project's reader.
    static func parse(_ data: Data) throws -> [String: Any] {
        let value = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        return try #require(value as? [String: Any])
    }

    static func render(_ files: AppleFiles, existing: [String: Data] = [:]) throws -> [String: Data] {
        var result: [String: Data] = [:]
        for file in try files.render(existing: { existing[$0] }) { result[file.path] = file.contents }
        return result
    }

    @Test("every file parses as its format and holds what the configuration says")
    func rendered() throws {
        let files = try Self.render(AppleFiles(configuration: try Self.configuration()))
        #expect(
            Set(files.keys) == [
                "Info.plist", "App.entitlements", "PrivacyInfo.xcprivacy", "Extensions/share.entitlements",
                "apple-app-site-association",
            ])
        let info = try Self.parse(try #require(files["Info.plist"]))
        #expect(info["CFBundleIdentifier"] as? String == "com.example.notes")
        #expect(info["CFBundleDisplayName"] as? String == "Notes")
        let types = try #require(info["CFBundleURLTypes"] as? [[String: Any]])
        #expect(types.count == 1)
        #expect(types.first?["CFBundleURLSchemes"] as? [String] == ["notes"])
        #expect(types.first?["CFBundleURLName"] as? String == "com.example.notes")
        #expect(info["WKAppBoundDomains"] as? [String] == ["notes.example.com", "example.com", "accounts.example.org"])
        #expect(info["UIBackgroundModes"] as? [String] == ["remote-notification"])
        #expect(info["NSFaceIDUsageDescription"] as? String == "Unlock your notes.")

        let entitlements = try Self.parse(try #require(files["App.entitlements"]))
        #expect(entitlements["com.apple.security.application-groups"] as? [String] == ["group.com.example.notes"])
        #expect(entitlements["keychain-access-groups"] as? [String] == ["$(AppIdentifierPrefix)com.example.shared"])
        #expect(
            entitlements["com.apple.developer.associated-domains"] as? [String] == [
                "applinks:notes.example.com", "webcredentials:notes.example.com",
            ])
        #expect(entitlements["aps-environment"] as? String == "development")
        #expect(entitlements["com.apple.developer.healthkit"] == nil)

        let share = try Self.parse(try #require(files["Extensions/share.entitlements"]))
        #expect(share["com.apple.security.application-groups"] as? [String] == ["group.com.example.notes"])
        #expect(share["aps-environment"] == nil)

        let privacy = try Self.parse(try #require(files["PrivacyInfo.xcprivacy"]))
        #expect(privacy["NSPrivacyTracking"] as? Bool == false)
        let collected = try #require(privacy["NSPrivacyCollectedDataTypes"] as? [[String: Any]])
        #expect(collected.first?["NSPrivacyCollectedDataType"] as? String == "NSPrivacyCollectedDataTypeProductInteraction")
        #expect(
            collected.first?["NSPrivacyCollectedDataTypePurposes"] as? [String] == [
                "NSPrivacyCollectedDataTypePurposeAnalytics"
            ])
        let accessed = try #require(privacy["NSPrivacyAccessedAPITypes"] as? [[String: Any]])
        #expect(accessed.compactMap { $0["NSPrivacyAccessedAPIType"] as? String }.count == AppleFiles.accessedAPIs.count)

        let associationData = try #require(files["apple-app-site-association"])
        let association = try #require(try JSONSerialization.jsonObject(with: associationData) as? [String: Any])
        let details = try #require((association["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
        #expect(details.first?["appIDs"] as? [String] == ["A1B2C3D4E5.com.example.notes"])
        let components = try #require(details.first?["components"] as? [[String: String]])
        #expect(components.map { $0["/"] } == ["/open", "/open/*"])
        #expect((association["webcredentials"] as? [String: Any])?["apps"] as? [String] == ["A1B2C3D4E5.com.example.notes"])
    }

    @Test("rendering over its own output changes nothing")
    func idempotent() throws {
        let files = AppleFiles(configuration: try Self.configuration())
        let first = try Self.render(files)
        #expect(try Self.render(files, existing: first) == first)
    }

    @Test("the app's other keys, URL types, background modes and API reasons are kept; owned keys follow the configuration")
    func merge() throws {
        let existing = PropertyList.dictionary([
            "UILaunchStoryboardName": .string("Launch"),
            "CFBundleVersion": .integer(42),
            "CFBundleURLTypes": .array([
                .dictionary([
                    "CFBundleURLName": .string("google"), "CFBundleURLSchemes": .array([.string("com.googleusercontent.apps.1")]),
                ]),
                .dictionary(["CFBundleURLName": .string("com.example.notes"), "CFBundleURLSchemes": .array([.string("old")])]),
            ]),
            "UIBackgroundModes": .array([.string("audio")]),
            "NSCameraUsageDescription": .string("left over"),
        ]).xmlDocument()
        let entitlements = PropertyList.dictionary([
            "aps-environment": .string("production"), "com.apple.developer.icloud-services": .array([.string("CloudKit")]),
            "com.apple.developer.healthkit": .bool(true),
        ]).xmlDocument()
        let privacy = PropertyList.dictionary([
            "NSPrivacyTrackingDomains": .array([.string("ads.example.com")]),
            "NSPrivacyAccessedAPITypes": .array([
                .dictionary([
                    "NSPrivacyAccessedAPIType": .string("NSPrivacyAccessedAPICategoryUserDefaults"),
                    "NSPrivacyAccessedAPITypeReasons": .array([.string("CA92.1")]),
                ]),
                .dictionary([
                    "NSPrivacyAccessedAPIType": .string("NSPrivacyAccessedAPICategorySystemBootTime"),
                    "NSPrivacyAccessedAPITypeReasons": .array([.string("8FFB.1")]),
                ]),
            ]),
        ]).xmlDocument()
        let files = try Self.render(
            AppleFiles(configuration: try Self.configuration()),
            existing: ["Info.plist": existing, "App.entitlements": entitlements, "PrivacyInfo.xcprivacy": privacy])
        let info = try Self.parse(try #require(files["Info.plist"]))
        #expect(info["UILaunchStoryboardName"] as? String == "Launch")
        #expect(info["CFBundleVersion"] as? Int == 42)
        let names = (info["CFBundleURLTypes"] as? [[String: Any]])?.compactMap { $0["CFBundleURLName"] as? String }
        #expect(names == ["com.example.notes", "google"])
        #expect(info["UIBackgroundModes"] as? [String] == ["audio", "remote-notification"])
        #expect(info["NSCameraUsageDescription"] == nil, "a usage description the configuration does not declare is removed")
        let granted = try Self.parse(try #require(files["App.entitlements"]))
        #expect(granted["aps-environment"] as? String == "production")
        #expect(granted["com.apple.developer.icloud-services"] as? [String] == ["CloudKit"])
        #expect(granted["com.apple.developer.healthkit"] == nil, "healthkit is off in the configuration")
        let manifest = try Self.parse(try #require(files["PrivacyInfo.xcprivacy"]))
        #expect(manifest["NSPrivacyTrackingDomains"] as? [String] == ["ads.example.com"])
        let reasons = Dictionary(
            uniqueKeysWithValues: (manifest["NSPrivacyAccessedAPITypes"] as? [[String: Any]] ?? []).compactMap { entry in
                (entry["NSPrivacyAccessedAPIType"] as? String).map {
                    ($0, entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? [])
                }
            })
        #expect(reasons["NSPrivacyAccessedAPICategoryUserDefaults"] == ["CA92.1"])
        #expect(reasons["NSPrivacyAccessedAPICategorySystemBootTime"] == ["8FFB.1", "35F9.1"])
        #expect(reasons["NSPrivacyAccessedAPICategoryFileTimestamp"] == ["C617.1"])
    }

    @Test("features that ask for permissions need their usage descriptions, named by field")
    func missingUsageDescription() throws {
        let files = AppleFiles(
            configuration: try Self.configuration(
                features: ["cameraPermission": true, "healthkit": true],
                identifiers: #"{"usageDescriptions": {"NSCameraUsageDescription": "Scan."}}"#))
        #expect {
            _ = try Self.render(files)
        } throws: { error in
            let error = error as? AppleFilesError
            return error?.code == .missingUsageDescription
                && error?.field == "identifiers.usageDescriptions.NSHealthShareUsageDescription"
        }
    }

    @Test("more than ten app-bound domains are refused, naming origins.allowed")
    func tooManyDomains() throws {
        let allowed = #""notes.example.com", "# + (0..<10).map { #""d\#($0).example.net""# }.joined(separator: ", ")
        let files = AppleFiles(configuration: try Self.configuration(features: [:], identifiers: "{}", allowed: allowed))
        #expect {
            _ = try Self.render(files)
        } throws: { error in
            (error as? AppleFilesError)?.code == .tooManyAppBoundDomains
                && (error as? AppleFilesError)?.field == "origins.allowed"
        }
    }

    @Test("without a team id there is no site-association file, and the rest still renders")
    func noTeam() throws {
        let files = try Self.render(AppleFiles(configuration: try Self.configuration(features: [:], identifiers: "{}")))
        #expect(files["apple-app-site-association"] == nil)
        #expect(files["Info.plist"] != nil)
        let info = try Self.parse(try #require(files["Info.plist"]))
        #expect(
            (info["CFBundleURLTypes"] as? [[String: Any]])?.first?["CFBundleURLSchemes"] as? [String] == ["com.example.notes"])
        #expect(info["UIBackgroundModes"] == nil)
    }

    @Test("an existing file that is not a property-list dictionary is refused, naming the file")
    func hostileExisting() throws {
        let files = AppleFiles(configuration: try Self.configuration())
        let header = #"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">"#
        let cases: [String: String] = [
            "entities":
                #"<?xml version="1.0"?><!DOCTYPE plist [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><plist><dict><key>k</key><string>&b;</string></dict></plist>"#,
            "malformed": header + "<dict><key>k</key><string>v</dict></plist>",
            "root array": header + "<array><string>v</string></array></plist>",
            "foreign element": header + "<dict><key>k</key><script>v</script></dict></plist>",
            "key without value": header + "<dict><key>k</key></dict></plist>",
            "value without key": header + "<dict><string>v</string></dict></plist>",
            "duplicate key": header + "<dict><key>k</key><true/><key>k</key><false/></dict></plist>",
            "bad integer": header + "<dict><key>k</key><integer>12x</integer></dict></plist>",
            "bad data": header + "<dict><key>k</key><data>!!!</data></dict></plist>",
            "too deep": header + "<dict><key>k</key>" + String(repeating: "<array>", count: 70)
                + String(repeating: "</array>", count: 70)
                + "</dict></plist>",
            "empty": "",
            "binary": "bplist00\u{1}\u{2}",
        ]
        for (name, text) in cases {
            #expect(throws: AppleFilesError.self, "\(name)") {
                _ = try Self.render(files, existing: ["App.entitlements": Data(text.utf8)])
            }
        }
        let huge = Data(header.utf8) + Data(repeating: 0x20, count: PropertyList.maximumSize) + Data("<dict/></plist>".utf8)
        #expect(throws: AppleFilesError.self) { _ = try Self.render(files, existing: ["Info.plist": huge]) }
    }

    @Test("every value type is written and read back as it was, with text escaped")
    func roundTrip() throws {
        let value = PropertyList.dictionary([
            "text": .string("a < b & c > d \"quoted\" é"), "yes": .bool(true), "no": .bool(false), "count": .integer(-7),
            "ratio": .real("0.5"), "when": .date("2026-11-26T05:00:00Z"), "bytes": .data(Data([0, 1, 2, 255])),
            "empty list": .array([]), "empty dict": .dictionary([:]),
            "nested": .array([.dictionary(["k": .array([.string("v")])])]),
        ])
        let written = value.xmlDocument()
        #expect(try PropertyList(xml: written, file: "x") == value)
        let parsed = try Self.parse(written)
        #expect(parsed["text"] as? String == "a < b & c > d \"quoted\" é")
        #expect(parsed["count"] as? Int == -7)
        #expect(parsed["bytes"] as? Data == Data([0, 1, 2, 255]))
    }
}
