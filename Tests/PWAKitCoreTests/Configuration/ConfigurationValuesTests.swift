import Foundation
import Testing

@testable import PWAKitCore

@Suite("Configuration values")
struct ConfigurationValuesTests {
    @Test func featureFlagDefaults() {
        let flags = FeatureFlags()
        for name in FeatureFlags.names {
            let off = ["healthkit", "iap", "payments", "liveActivity", "widgets", "backgroundRefresh"]
            #expect(flags.isEnabled(name) == !off.contains(name), "\(name)")
        }
        #expect(FeatureFlags.names.count == 16)
        #expect(flags.isEnabled("teleport") == nil)
        #expect(flags.isEnabled("Haptics") == nil)
    }

    @Test func featureFlagsDecodeWithDefaultsForMissingKeys() throws {
        let flags = try JSONDecoder().decode(FeatureFlags.self, from: Data(#"{"haptics": false, "iap": true}"#.utf8))
        #expect(flags.isEnabled("haptics") == false)
        #expect(flags.isEnabled("iap") == true)
        #expect(flags.isEnabled("share") == true)
        #expect(flags.isEnabled("healthkit") == false)
    }

    @Test(
        "colours",
        arguments: [
            ("#AABBCC", "#AABBCC", "#AABBCC"), ("#aabbcc", "#AABBCC", "#AABBCC"), ("#abc", nil, "#AABBCC"),
            ("#000", nil, "#000000"), (" #123456 ", nil, "#123456"), ("#12345", nil, nil), ("#1234567", nil, nil),
            ("red", nil, nil), ("rgb(1,2,3)", nil, nil), ("#ggg", nil, nil), ("#11223344", nil, nil), ("", nil, nil),
            ("abc", nil, nil), ("#ÀBC", nil, nil),
        ] as [(String, String?, String?)])
    func colours(text: String, strict: String?, lenient: String?) {
        #expect(HexColor(strict: text)?.description == strict)
        #expect(HexColor(lenient: text)?.description == lenient)
    }

    @Test func trimming() {
        #expect(" \r\n\t a b \r\n".trimmingASCIISpaces() == "a b")
        #expect(" \r\n ".trimmingASCIISpaces() == "")
        #expect("\u{A0}x".trimmingASCIISpaces() == "\u{A0}x")
    }

    @Test func colourCodable() throws {
        let color = try JSONDecoder().decode(HexColor.self, from: Data(##""#0a0B0c""##.utf8))
        #expect(color == HexColor(red: 10, green: 11, blue: 12))
        #expect(String(decoding: try JSONEncoder().encode(color), as: UTF8.self) == ##""#0A0B0C""##)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(HexColor.self, from: Data(##""#abc""##.utf8)) }
    }

    @Test func reportEncodesValidity() throws {
        let report = ValidationReport(issues: [
            ValidationIssue(severity: .warning, path: "x", message: "unknown key", code: .unknownKey)
        ])
        #expect(report.isValid)
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(report)) as? [String: Any]
        #expect(object?["isValid"] as? Bool == true)
        let decoded = try JSONDecoder().decode(ValidationReport.self, from: JSONEncoder().encode(report))
        #expect(decoded == report)
        var invalid = report
        invalid.issues.append(ValidationIssue(severity: .error, path: "", message: "bad", code: .invalidJSON))
        #expect(!invalid.isValid)
        #expect(invalid.errors.count == 1 && invalid.warnings.count == 1)
        #expect(invalid.issues[1].description == "bad")
        #expect(invalid.issues[0].description == "x: unknown key")
    }

    @Test func pathRendering() {
        #expect(ValidationContext.path("", key: "version") == "version")
        #expect(ValidationContext.path("origins", key: "allowed") == "origins.allowed")
        #expect(ValidationContext.path("origins.allowed", index: 2) == "origins.allowed[2]")
        #expect(ValidationContext.path("origins.grants", key: "*.example.com") == #"origins.grants["*.example.com"]"#)
        #expect(ValidationContext.path("", key: "a\"b") == #"["a\"b"]"#)
        #expect(ValidationContext.path("", key: "") == #"[""]"#)
    }
}
