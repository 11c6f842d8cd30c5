import Foundation
import PWAKitCore
import PWAKitModules
import Testing

/// Every action of every built-in module, called through the dispatcher: its example payload
/// succeeds with a result that matches the declared schema (or fails with one of the module's
/// declared codes), and malformed payloads are refused naming the field at fault.
@Suite struct ModuleContractTests {
    /// Actions the simulated device answers with a declared module error, by design.
    static let expectedFailures: [String: String] = [
        "app.openSettings": "app.settings_unavailable",
        "notifications.subscribe": "notifications.push_unavailable",
        "notifications.getToken": "notifications.push_unavailable",
    ]

    /// Every feature flag on.
    static let allOn = FeatureFlags(
        healthkit: true, iap: true, payments: true, liveActivity: true, widgets: true, backgroundRefresh: true)

    @Test func everyBuiltInModuleHasASchemaAndEveryPayloadActionAnExample() throws {
        let schemas = try ModuleCatalog.schemas()
        #expect(
            Set(schemas.map(\.name)) == [
                "platform", "app", "haptics", "vibration", "notifications", "badging", "share", "biometrics",
                "secureStorage", "clipboard", "print", "iap", "healthkit", "payments", "camera", "microphone", "location",
                "liveActivity", "widget", "backgroundRefresh",
            ])
        for schema in schemas {
            for action in schema.actions where action.payload != nil {
                #expect(action.example != nil, "\(schema.name).\(action.name) has a payload but no example")
            }
            for error in schema.errors {
                #expect(error.code.hasPrefix(schema.name + "."), "\(error.code) is not namespaced by \(schema.name)")
            }
        }
    }

    @Test func everyActionAnswersItsExampleWithAResultOfItsDeclaredShape() async throws {
        let harness = try await ModuleHarness(
            features: Self.allOn, payments: PaymentsModuleTests.merchant)
        _ = try await harness.data("notifications", "requestPermission")
        _ = try await harness.data(
            "healthkit", "requestAuthorization", ["read": ["steps", "heartRate", "workouts", "sleep"], "write": ["workouts"]])
        let schemas = try ModuleCatalog.schemas()
        #expect(schemas.count >= 20)
        for schema in schemas {
            for action in schema.actions {
                let name = "\(schema.name).\(action.name)"
                let response = try await harness.call(schema.name, action.name, action.example)
                if let expected = Self.expectedFailures[name] {
                    #expect(response["code"]?.stringValue == expected, "\(name): \(JSONSerializer.serialize(response))")
                    continue
                }
                guard response["success"] == .bool(true) else {
                    Issue.record("\(name) failed: \(JSONSerializer.serialize(response))")
                    continue
                }
                if let result = action.result {
                    let issues = SchemaValidator.issues(response["data"] ?? .null, against: result, path: "data")
                    #expect(issues.isEmpty, "\(name): \(issues)")
                } else {
                    #expect(response["data"] == nil, "\(name) declares no result but answered data")
                }
            }
        }
    }

    @Test func malformedPayloadsAreRefusedNamingTheField() async throws {
        let harness = try await ModuleHarness(
            features: Self.allOn, payments: PaymentsModuleTests.merchant)
        let schemas = try ModuleCatalog.schemas()
        #expect(schemas.count >= 20)
        for schema in schemas {
            for action in schema.actions {
                let name = "\(schema.name).\(action.name)"
                guard let payload = action.payload else {
                    let response = try await harness.call(schema.name, action.name, ["unexpected": 1])
                    #expect(response["code"] == "invalid_payload", "\(name) accepted a payload it does not take")
                    continue
                }
                let notAnObject = try await harness.call(schema.name, action.name, "nope")
                #expect(notAnObject["code"] == "invalid_payload", "\(name): \(JSONSerializer.serialize(notAnObject))")
                #expect(notAnObject["details"]?["path"] == "payload", "\(name)")
                guard case .object(let object) = payload, var example = action.example?.objectValue,
                    let field = object.fields.first(where: { $0.required && Self.wrongValue(for: $0.node) != nil })
                else { continue }
                example[field.name] = Self.wrongValue(for: field.node)
                let wrong = try await harness.call(schema.name, action.name, .object(example))
                #expect(wrong["code"] == "invalid_payload", "\(name): \(JSONSerializer.serialize(wrong))")
                #expect(
                    wrong["details"]?["path"]?.stringValue == "payload.\(field.name)",
                    "\(name): \(JSONSerializer.serialize(wrong))")
                example[field.name] = nil
                let missing = try await harness.call(schema.name, action.name, .object(example))
                #expect(missing["code"] == "invalid_payload", "\(name) accepted a payload without \(field.name)")
            }
        }
    }

    @Test func hostileAndOversizedPayloadsGetErrorsNotCrashes() async throws {
        let harness = try await ModuleHarness(
            features: Self.allOn, payments: PaymentsModuleTests.merchant)
        let huge = JSONValue.string(String(repeating: "x", count: 600_000))
        #expect(try await harness.path("clipboard", "write", ["text": huge]) == "payload.text")
        #expect(try await harness.path("secureStorage", "set", ["key": "k", "value": huge]) == "payload.value")
        #expect(try await harness.path("share", "share", ["text": huge]) == "payload.text")
        let deep = (0..<200).reduce(JSONValue.null) { inner, _ in .object(["trigger": inner]) }
        let deepResponse = try await harness.call("notifications", "schedule", deep)
        #expect(
            ["invalid_payload", "invalid_message"].contains(deepResponse["code"]?.stringValue),
            "\(JSONSerializer.serialize(deepResponse))")
        #expect(try await harness.code("haptics", "impact", ["style": ["__proto__": 1]]) == "invalid_payload")
        #expect(
            try await harness.code("vibration", "vibrate", ["pattern": .array(Array(repeating: 1, count: 10_000))])
                == "invalid_payload")
        let overflow = try await harness.call("vibration", "vibrate", ["pattern": [100, 1e300]])
        #expect(overflow["details"]?["path"] == "payload.pattern[1]", "\(JSONSerializer.serialize(overflow))")
        #expect(
            try await harness.code("iap", "getProducts", ["productIds": .array(Array(repeating: "p", count: 101))])
                == "invalid_payload")
    }

    @Test func anOriginWithoutTheGrantIsRefused() async throws {
        let harness = try await ModuleHarness(grant: .only(["haptics", "clipboard.read"]))
        #expect(try await harness.code("haptics", "selection") == nil)
        #expect(try await harness.code("clipboard", "read") == nil)
        #expect(try await harness.code("clipboard", "write", ["text": "x"]) == "permission_denied")
        #expect(try await harness.code("secureStorage", "get", ["key": "x"]) == "permission_denied")
        #expect(await harness.device.log == ["haptics.selection"])
    }

    @Test func aModuleWhoseFlagIsOffAnswersUnavailable() async throws {
        let harness = try await ModuleHarness(
            features: FeatureFlags(haptics: false, healthkit: false, iap: false, cameraPermission: false))
        for (module, action) in [("haptics", "selection"), ("healthkit", "isAvailable"), ("iap", "restore"), ("camera", "check")]
        {
            #expect(try await harness.code(module, action) == "unavailable", "\(module).\(action)")
        }
        #expect(try await harness.code("microphone", "check") == nil)
    }

    static func wrongValue(for node: SchemaNode) -> JSONValue? {
        switch node {
        case .string: 42
        case .integer, .number: "not a number"
        case .boolean: "not a boolean"
        case .array, .map, .object, .union: "not an object"
        case .enumeration: "not-a-case"
        case .any: nil
        }
    }
}
