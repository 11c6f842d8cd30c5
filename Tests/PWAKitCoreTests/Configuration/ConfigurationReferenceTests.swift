import Foundation
import Testing

@testable import PWAKitCore

/// The JSON Schema, its embedded copy and `docs/configuration.md` say what the validator does.
@Suite("Configuration reference and JSON Schema")
struct ConfigurationReferenceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    static func schema() throws -> [String: Any] {
        let data = try Data(contentsOf: root.appendingPathComponent("Schema/pwa-config.schema.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func properties(_ object: [String: Any]?) -> Set<String> {
        Set((object?["properties"] as? [String: Any])?.keys.map { $0 } ?? [])
    }

    static func section(_ schema: [String: Any], _ name: String) -> [String: Any]? {
        (schema["properties"] as? [String: Any])?[name] as? [String: Any]
    }

    static func enumValues(_ schema: [String: Any], _ section: String, _ field: String) -> Set<String> {
        let property = (Self.section(schema, section)?["properties"] as? [String: Any])?[field] as? [String: Any]
        return Set(property?["enum"] as? [String] ?? [])
    }

    @Test("the embedded schema is the file in Schema/ (run scripts/embed-schema after changing it)")
    func embedded() throws {
        let file = try String(contentsOf: Self.root.appendingPathComponent("Schema/pwa-config.schema.json"), encoding: .utf8)
        #expect(ConfigurationSchema.text == file)
    }

    @Test("every key the validator knows is a property of the schema, and no other")
    func keys() throws {
        let schema = try Self.schema()
        #expect(Self.properties(schema) == Set(ConfigurationValidator.topLevelKeys))
        #expect(Self.properties(Self.section(schema, "app")) == Set(ConfigurationValidator.appKeys))
        #expect(Self.properties(Self.section(schema, "origins")) == Set(ConfigurationValidator.originsKeys))
        #expect(Self.properties(Self.section(schema, "features")) == Set(FeatureFlags.names))
        #expect(Self.properties(Self.section(schema, "appearance")) == Set(ConfigurationValidator.appearanceKeys))
        #expect(Self.properties(Self.section(schema, "notifications")) == Set(ConfigurationValidator.notificationsKeys))
        #expect(Self.properties(Self.section(schema, "payments")) == Set(ConfigurationValidator.paymentsKeys))
        #expect(Self.properties(Self.section(schema, "identifiers")) == Set(IdentifiersSection.keys))
    }

    @Test("the schema's enums are the Swift enums' cases")
    func enums() throws {
        let schema = try Self.schema()
        #expect(Self.enumValues(schema, "appearance", "displayMode") == Set(DisplayMode.allCases.map(\.rawValue)))
        #expect(Self.enumValues(schema, "appearance", "statusBarStyle") == Set(StatusBarStyle.allCases.map(\.rawValue)))
        #expect(Self.enumValues(schema, "appearance", "orientationLock") == Set(OrientationLock.allCases.map(\.rawValue)))
        #expect(Self.enumValues(schema, "notifications", "provider") == Set(NotificationProvider.allCases.map(\.rawValue)))
    }

    @Test("the reference names every field, and every JSON example in it is valid")
    func reference() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/configuration.md"), encoding: .utf8)
        let schema = try Self.schema()
        for section in ["app", "origins", "features", "appearance", "notifications", "payments", "identifiers"] {
            for key in Self.properties(Self.section(schema, section)) {
                #expect(text.contains("`\(section).\(key)`"), "docs/configuration.md does not name \(section).\(key)")
            }
        }
        let blocks = text.components(separatedBy: "```json\n").dropFirst().compactMap { $0.components(separatedBy: "```").first }
        #expect(blocks.count >= 2)
        for block in blocks where block.contains("\"version\"") {
            let report = ConfigurationValidator().validate(Data(block.utf8))
            #expect(report.issues.filter { $0.severity == .error }.isEmpty, "\(report.issues)\n\(block)")
        }
    }

    @Test("init writes $schema; the written file validates and decodes")
    func writtenSchemaReference() throws {
        let configuration = try ConfigurationLoader.load(
            from: Data(
                #"{"version":1,"app":{"name":"A","bundleId":"com.example.a","startUrl":"https://a.example.com/"},"origins":{"allowed":["a.example.com"]}}"#
                    .utf8))
        let written = configuration.encodedJSON(schema: ConfigurationSchema.fileName)
        #expect(String(decoding: written, as: UTF8.self).hasPrefix("{\n  \"$schema\": \"pwa-config.schema.json\","))
        #expect(ConfigurationValidator().validate(written).issues.isEmpty)
        #expect(try ConfigurationLoader.load(from: written) == configuration)
    }
}
