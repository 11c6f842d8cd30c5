import Foundation
import Testing

@testable import PWAKitCore

@Suite("The identifiers section and AppIdentifiers")
struct IdentifiersTests {
    static func document(_ identifiers: String?, bundleId: String = "com.example.notes") -> String {
        """
        {"version": 1, "app": {"name": "Notes", "bundleId": "\(bundleId)", "startUrl": "https://notes.example.com/"},
         "origins": {"allowed": ["notes.example.com"]}\(identifiers.map { #", "identifiers": \#($0)"# } ?? "")}
        """
    }

    static let full = """
        {"teamId": "A1B2C3D4E5", "urlScheme": "notes", "authCallback": "notes://auth/done",
         "appGroup": "group.com.example.notes", "keychainGroup": "com.example.shared", "keychainService": "notes-session",
         "associatedDomains": ["applinks:notes.example.com", "applinks:*.example.com", "webcredentials:notes.example.com?mode=developer"],
         "linkPathPrefix": "/open", "extensions": {"share": "com.example.notes.share"},
         "errorDomains": {"share": "com.example.notes.share-error"},
         "usageDescriptions": {"NSCameraUsageDescription": "Scan a code."},
         "collectedData": [{"type": "UserID", "linked": true, "tracking": false, "purposes": ["AppFunctionality"]}]}
        """

    @Test("a full section is read, resolved and kept through an encode and decode")
    func full() throws {
        let configuration = try ConfigurationLoader.load(from: Data(Self.document(Self.full).utf8))
        let ids = AppIdentifiers(configuration)
        #expect(ids.urlScheme == "notes")
        #expect(ids.authCallback == "notes://auth/done")
        #expect(ids.appGroup == "group.com.example.notes")
        #expect(ids.keychainGroup == "com.example.shared")
        #expect(ids.keychainService == "notes-session")
        #expect(ids.applicationIdentifier == "A1B2C3D4E5.com.example.notes")
        #expect(ids.universalLinkHosts == ["notes.example.com"])
        #expect(ids.linkPathPrefix == "/open")
        #expect(ids.extensions == ["share": "com.example.notes.share"])
        #expect(ids.errorDomain("share") == "com.example.notes.share-error")
        #expect(ids.errorDomain("sync") == "com.example.notes.sync")
        let again = try ConfigurationLoader.load(from: configuration.encodedJSON())
        #expect(again == configuration)
    }

    @Test("without the section every name derives from the bundle id")
    func defaults() throws {
        let configuration = try ConfigurationLoader.load(from: Data(Self.document(nil, bundleId: "com.Example.Notes").utf8))
        let ids = AppIdentifiers(configuration)
        #expect(ids.urlScheme == "com.example.notes")
        #expect(ids.authCallback == "com.example.notes://auth/callback")
        #expect(ids.appGroup == "group.com.Example.Notes")
        #expect(ids.keychainGroup == "com.Example.Notes")
        #expect(ids.keychainService == "com.Example.Notes")
        #expect(ids.teamId == nil && ids.applicationIdentifier == nil)
        #expect(ids.associatedDomains.isEmpty && ids.universalLinkHosts.isEmpty && ids.linkPathPrefix == "")
    }

    @Test("a bundle id that makes no URL scheme needs identifiers.urlScheme")
    func derivedScheme() {
        let report = ConfigurationValidator().validate(Data(Self.document(nil, bundleId: "1password.app").utf8))
        #expect(report.issues.contains { $0.path == "identifiers.urlScheme" && $0.code == .missingField })
        let fixed = ConfigurationValidator().validate(
            Data(Self.document(#"{"urlScheme": "onepassword"}"#, bundleId: "1password.app").utf8))
        #expect(fixed.isValid, "\(fixed.issues)")
    }

    @Test("malformed and hostile fields are reported at their path")
    func invalid() {
        let long = String(repeating: "a", count: 70)
        let cases: [(String, String, ValidationIssue.Code)] = [
            ("[]", "identifiers", .wrongType),
            (#"{"teamId": "a1b2c3d4e5"}"#, "identifiers.teamId", .invalidValue),
            (#"{"teamId": "A1B2C3D4E"}"#, "identifiers.teamId", .invalidValue),
            (#"{"teamId": 12}"#, "identifiers.teamId", .wrongType),
            (#"{"urlScheme": "Notes"}"#, "identifiers.urlScheme", .invalidValue),
            (#"{"urlScheme": "https"}"#, "identifiers.urlScheme", .invalidValue),
            (#"{"urlScheme": "app"}"#, "identifiers.urlScheme", .invalidValue),
            (#"{"urlScheme": "no tes"}"#, "identifiers.urlScheme", .invalidValue),
            (#"{"urlScheme": "\#(long)"}"#, "identifiers.urlScheme", .invalidValue),
            (#"{"urlScheme": ""}"#, "identifiers.urlScheme", .invalidValue),
            (#"{"authCallback": "other://auth"}"#, "identifiers.authCallback", .invalidValue),
            (#"{"authCallback": "notes"}"#, "identifiers.authCallback", .invalidValue),
            (#"{"authCallback": "com.example.notes://a\nb"}"#, "identifiers.authCallback", .invalidValue),
            (#"{"authCallback": "https://evil.example/cb"}"#, "identifiers.authCallback", .invalidValue),
            (#"{"appGroup": "com.example.notes"}"#, "identifiers.appGroup", .invalidValue),
            (#"{"appGroup": "group.notes"}"#, "identifiers.appGroup", .invalidValue),
            (#"{"keychainGroup": "shared"}"#, "identifiers.keychainGroup", .invalidValue),
            (#"{"keychainService": ""}"#, "identifiers.keychainService", .invalidValue),
            (#"{"keychainService": "a\u0000b"}"#, "identifiers.keychainService", .invalidValue),
            (#"{"keychainService": "../../etc"}"#, "identifiers.keychainService", .invalidValue),
            (#"{"keychainService": "a/b"}"#, "identifiers.keychainService", .invalidValue),
            (#"{"associatedDomains": "applinks:a.example"}"#, "identifiers.associatedDomains", .wrongType),
            (
                #"{"teamId": "A1B2C3D4E5", "associatedDomains": ["a.example.com"]}"#, "identifiers.associatedDomains[0]",
                .invalidValue
            ),
            (
                #"{"teamId": "A1B2C3D4E5", "associatedDomains": ["ftp:a.example.com"]}"#, "identifiers.associatedDomains[0]",
                .invalidValue
            ),
            (
                #"{"teamId": "A1B2C3D4E5", "associatedDomains": ["applinks:A.example.com"]}"#, "identifiers.associatedDomains[0]",
                .invalidValue
            ),
            (
                #"{"teamId": "A1B2C3D4E5", "associatedDomains": ["applinks:example"]}"#, "identifiers.associatedDomains[0]",
                .invalidValue
            ),
            (
                #"{"teamId": "A1B2C3D4E5", "associatedDomains": ["applinks:a.example.com?mode=x"]}"#,
                "identifiers.associatedDomains[0]", .invalidValue
            ),
            (#"{"teamId": "A1B2C3D4E5", "associatedDomains": [7]}"#, "identifiers.associatedDomains[0]", .wrongType),
            (#"{"associatedDomains": ["applinks:a.example.com"]}"#, "identifiers.teamId", .missingField),
            (#"{"linkPathPrefix": "open"}"#, "identifiers.linkPathPrefix", .invalidValue),
            (#"{"linkPathPrefix": "/a/../b"}"#, "identifiers.linkPathPrefix", .invalidValue),
            (#"{"linkPathPrefix": "/a/"}"#, "identifiers.linkPathPrefix", .invalidValue),
            (#"{"linkPathPrefix": "/a b"}"#, "identifiers.linkPathPrefix", .invalidValue),
            (#"{"extensions": {"share": "com.other.share"}}"#, "identifiers.extensions.share", .invalidValue),
            (#"{"extensions": {"Share": "com.example.notes.share"}}"#, "identifiers.extensions.Share", .invalidValue),
            (#"{"extensions": {"share": 1}}"#, "identifiers.extensions.share", .wrongType),
            (
                #"{"extensions": {"a": "com.example.notes.x", "b": "com.example.notes.x"}}"#, "identifiers.extensions.b",
                .invalidValue
            ),
            (#"{"extensions": {"share": "com.example.notesx.share"}}"#, "identifiers.extensions.share", .invalidValue),
            (#"{"errorDomains": {"share": "not a domain"}}"#, "identifiers.errorDomains.share", .invalidValue),
            (#"{"errorDomains": {"share": "a.b", "share": "c.d"}}"#, "identifiers.errorDomains.share", .duplicateKey),
            (#"{"usageDescriptions": {"NSCameraUsage": "x"}}"#, "identifiers.usageDescriptions.NSCameraUsage", .invalidValue),
            (
                #"{"usageDescriptions": {"NSCameraUsageDescription": "  "}}"#,
                "identifiers.usageDescriptions.NSCameraUsageDescription", .invalidValue
            ),
            (
                #"{"usageDescriptions": {"NSCameraUsageDescription": true}}"#,
                "identifiers.usageDescriptions.NSCameraUsageDescription", .wrongType
            ),
            (#"{"collectedData": {}}"#, "identifiers.collectedData", .wrongType),
            (
                #"{"collectedData": [{"type": "Email", "linked": true, "tracking": false, "purposes": ["Analytics"]}]}"#,
                "identifiers.collectedData[0].type", .invalidValue
            ),
            (
                #"{"collectedData": [{"type": "UserID", "tracking": false, "purposes": ["Analytics"]}]}"#,
                "identifiers.collectedData[0].linked", .missingField
            ),
            (
                #"{"collectedData": [{"type": "UserID", "linked": "yes", "tracking": false, "purposes": ["Analytics"]}]}"#,
                "identifiers.collectedData[0].linked", .wrongType
            ),
            (
                #"{"collectedData": [{"type": "UserID", "linked": true, "tracking": false, "purposes": []}]}"#,
                "identifiers.collectedData[0].purposes", .wrongType
            ),
            (
                #"{"collectedData": [{"type": "UserID", "linked": true, "tracking": false, "purposes": ["Sales"]}]}"#,
                "identifiers.collectedData[0].purposes[0]", .invalidValue
            ),
            (
                #"{"collectedData": [{"type": "UserID", "linked": true, "tracking": false, "purposes": ["Other", "Other"]}]}"#,
                "identifiers.collectedData[0].purposes[1]", .invalidValue
            ),
            (
                #"{"collectedData": [{"type": "UserID", "linked": true, "tracking": false, "purposes": ["Other"]}, {"type": "UserID", "linked": true, "tracking": false, "purposes": ["Other"]}]}"#,
                "identifiers.collectedData[1].type", .invalidValue
            ),
            (
                #"{"extensions": {"# + (0..<65).map { #""e\#($0)": "com.example.notes.e\#($0)""# }.joined(separator: ",") + "}}",
                "identifiers.extensions", .invalidValue
            ),
        ]
        for (section, path, code) in cases {
            let report = ConfigurationValidator().validate(Data(Self.document(section).utf8))
            #expect(!report.isValid, "\(section.prefix(60)) was accepted")
            #expect(report.issues.contains { $0.path == path && $0.code == code }, "\(section.prefix(80)): \(report.issues)")
        }
    }

    @Test("an https callback on an applinks host is accepted; unknown keys warn")
    func httpsCallbackAndUnknownKeys() {
        let report = ConfigurationValidator().validate(
            Data(
                Self.document(
                    #"{"teamId": "A1B2C3D4E5", "associatedDomains": ["applinks:notes.example.com"], "authCallback": "https://notes.example.com/auth", "bundleIds": 1}"#
                ).utf8))
        #expect(report.isValid, "\(report.issues)")
        #expect(report.issues.map(\.path) == ["identifiers.bundleIds"])
    }
}
