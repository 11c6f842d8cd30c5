import Foundation
import Testing

@testable import PWAKitCore

@Suite("Flag defaults in the configuration")
struct FlagDefaultsTests {
    static func document(_ flags: String) -> String {
        """
        {"version": 1, "app": {"name": "A", "bundleId": "com.example.a", "startUrl": "https://a.example.com/"},
         "origins": {"allowed": ["a.example.com"]}, "flags": \(flags)}
        """
    }

    @Test("scalar defaults are read, kept through an encode and decode, and absent means none")
    func valid() throws {
        let configuration = try ConfigurationLoader.load(
            from: Data(Self.document(#"{"new_onboarding": false, "max_items": 20, "ratio": 0.5, "greeting": "Hi"}"#).utf8))
        #expect(configuration.flags?["new_onboarding"] == .bool(false))
        #expect(configuration.flags?["max_items"] == .number(20))
        #expect(configuration.flags?["greeting"] == .string("Hi"))
        let again = try ConfigurationLoader.load(from: configuration.encodedJSON())
        #expect(again == configuration)
        let none = try ConfigurationLoader.load(
            from: Data(Self.document("{}").replacingOccurrences(of: #", "flags": {}"#, with: "").utf8))
        #expect(none.flags == nil)
    }

    @Test("bad names, types, sizes and counts are reported at their path")
    func invalid() {
        let cases: [(String, String, ValidationIssue.Code)] = [
            (#"{"Beta": true}"#, "flags.Beta", .invalidValue),
            (#"{"1st": true}"#, "flags.1st", .invalidValue),
            (#"{"limits": {"a": 1}}"#, "flags.limits", .wrongType),
            (#"{"list": [1]}"#, "flags.list", .wrongType),
            (#"{"nothing": null}"#, "flags.nothing", .wrongType),
            (#"{"beta": true, "beta": false}"#, "flags.beta", .duplicateKey),
            (#"{"long": "\#(String(repeating: "x", count: 1025))"}"#, "flags.long", .invalidValue),
            ("[]", "flags", .wrongType),
            ("{" + (0..<257).map { #""f\#($0)": true"# }.joined(separator: ",") + "}", "flags", .invalidValue),
        ]
        for (flags, path, code) in cases {
            let report = ConfigurationValidator().validate(Data(Self.document(flags).utf8))
            #expect(report.issues.contains { $0.path == path && $0.code == code }, "\(flags.prefix(40)): \(report.issues)")
        }
        // A flag written twice is an error, as any key is, and only its first value is checked.
        let twice = ConfigurationValidator().validate(Data(Self.document(#"{"beta": true, "beta": [1]}"#).utf8))
        #expect(twice.issues.map(\.code) == [.duplicateKey], "\(twice.issues)")
        #expect(throws: (any Error).self) {
            try ConfigurationLoader.load(from: Data(Self.document(#"{"beta": true, "beta": false}"#).utf8))
        }
    }
}
