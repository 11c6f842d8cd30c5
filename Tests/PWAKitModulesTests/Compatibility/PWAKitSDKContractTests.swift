import Foundation
import PWAKitCore
import PWAKitModules
import Testing

/// The PWAKit project's SDK, as recorded by hand in `Tests/HostPages/pwa-kit/contract.json`: every
/// message it posts, sent as it sends them (a JSON string) through a real dispatcher over the
/// simulated device, must answer with every field the SDK reads, of the type it reads.
@Suite struct PWAKitSDKContractTests {
    static let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("HostPages/pwa-kit/contract.json")

    static func contract() throws -> JSONValue {
        try JSONParser.parse(Data(contentsOf: file))
    }

    static func harness(_ contract: JSONValue) async throws -> ModuleHarness {
        let features = try (contract["setup"]?["features"] ?? [:]).decode(FeatureFlags.self)
        let harness = try await ModuleHarness(features: features)
        let script = try SimulationScript.parse(
            Data(JSONSerializer.serialize(["store": ["products": contract["setup"]?["products"] ?? []]]).utf8))
        await harness.device.apply(script)
        return harness
    }

    @Test func everyMessageOfTheSDKGetsTheFieldsItReads() async throws {
        let contract = try Self.contract()
        let cases = try #require(contract["cases"]?.arrayValue)
        let harness = try await Self.harness(contract)
        var pairs = Set<String>()
        for testCase in cases {
            let name = testCase["name"]?.stringValue ?? "?"
            for before in testCase["before"]?.arrayValue ?? [] {
                let answer = try await Self.send(before, through: harness)
                #expect(answer["success"] == true, "\(name), before: \(JSONSerializer.serialize(answer))")
            }
            let message = try #require(testCase["message"])
            pairs.insert("\(message["module"]?.stringValue ?? "").\(message["action"]?.stringValue ?? "")")
            let answer = try await Self.send(message, through: harness)
            let problems = ContractJudge.problems(testCase, answer)
            #expect(problems.isEmpty, "\(name): \(problems) in \(JSONSerializer.serialize(answer))")
        }
        // Every module and action that SDK defines (58 pairs) is recorded.
        #expect(pairs.count == 58, "\(pairs.sorted())")
    }

    @Test func everyDifferenceIsDocumented() throws {
        let contract = try Self.contract()
        let differing = (contract["cases"]?.arrayValue ?? []).filter { $0["difference"] != nil }
        #expect(!differing.isEmpty)
        let section = ModuleReference.compatibility(try ModuleCatalog.schemas())
        for testCase in differing {
            let module = testCase["message"]?["module"]?.stringValue ?? ""
            #expect(section.contains(module), "\(testCase["name"] ?? "") differs but \(module) is not in the section")
        }
    }

    @Test func aliasesAnswerAsTheirModuleAndAreListed() async throws {
        let harness = try await ModuleHarness()
        await harness.device.apply(try SimulationScript.parse(Data(#"{"permissions":{"camera":"denied"}}"#.utf8)))
        #expect(try await harness.data("cameraPermission", "checkPermission")?["state"] == "denied")
        #expect(try await harness.data("camera", "check")?["state"] == "denied")
        // An alias also answers the module's own action names; the module never answers the alias's.
        #expect(try await harness.data("cameraPermission", "check")?["state"] == "denied")
        #expect(try await harness.code("camera", "checkPermission") == "unknown_action")
        #expect(try await harness.code("cameraPermission", "teleport") == "unknown_action")
        let info = try await harness.data("platform", "getInfo")
        #expect(info?["aliases"]?["microphonePermission"] == "microphone")
        #expect(info?["providers"]?["locationPermission"] == info?["providers"]?["location"])
    }

    @Test func aliasesFollowTheirModulesFlagAndGrant() async throws {
        let off = try await ModuleHarness(features: FeatureFlags(cameraPermission: false))
        #expect(try await off.code("cameraPermission", "checkPermission") == "unavailable")
        // A grant names the module; the alias is the same module.
        let granted = try await ModuleHarness(grant: .only(["camera"]))
        #expect(try await granted.data("cameraPermission", "requestPermission")?["state"] != nil)
        #expect(try await granted.code("microphonePermission", "checkPermission") == "permission_denied")
    }

    @Test func theFieldNamesOfTheSDKAreAcceptedButNeverBothNames() async throws {
        let harness = try await ModuleHarness()
        _ = try await harness.data("healthkit", "requestAuthorization", ["readWorkouts": true, "writeWorkouts": true])
        let start = "2026-05-01T07:00:00.000Z"
        let end = "2026-05-01T07:45:00.000Z"
        let saved = try await harness.data(
            "healthkit", "saveWorkout",
            ["workoutType": "functionalStrengthTraining", "startDate": .string(start), "endDate": .string(end), "calories": 200])
        #expect(saved?["success"] == true)
        let workouts = await harness.device.workouts
        #expect(workouts.last?.type == .functionalStrengthTraining)
        #expect(workouts.last?.energyBurned == 200)
        let both = try await harness.call(
            "healthkit", "saveWorkout",
            ["workoutType": "running", "type": "running", "startDate": .string(start), "endDate": .string(end)])
        #expect(both["code"] == "invalid_payload")
        #expect(both["details"]?["path"] == "payload.workoutType")
        #expect(
            try await harness.path("healthkit", "requestAuthorization", ["readWorkouts": "yes"]) == "payload.readWorkouts")
        #expect(try await harness.path("healthkit", "requestAuthorization", ["read": ["bodyMass"]]) == "payload.read")
        // Quantity types this host has no data for are accepted and ignored; unknown names are still refused.
        #expect(
            try await harness.data("healthkit", "requestAuthorization", ["read": ["bodyMass", "stepCount"]])?["success"]
                == true)
        #expect(
            try await harness.path("healthkit", "requestAuthorization", ["read": ["stepCount", "teleportation"]])
                == "payload.read[1]")
        let listed = try await harness.data(
            "healthkit", "queryWorkouts",
            ["startDate": "2026-04-30T00:00:00Z", "endDate": "2026-05-02T00:00:00Z", "type": "running"])
        #expect(listed?["workouts"] == [])
        let all = try await harness.data(
            "healthkit", "queryWorkouts", ["startDate": "2026-04-30T00:00:00Z", "endDate": "2026-05-02T00:00:00Z"])
        #expect(all?["workouts"]?[0]?["duration"] == 2700)
        #expect(all?["workouts"]?[0]?["calories"] == 200)
    }

    /// Sends `message` as the SDK does: its JSON text, date tokens replaced.
    static func send(_ message: JSONValue, through harness: ModuleHarness) async throws -> JSONValue {
        let text = JSONSerializer.serialize(ContractJudge.resolvingDates(message, now: Date()))
        guard let reply = await harness.dispatcher.handle(text, from: harness.page) else {
            throw HarnessError(message: "no reply to \(text)")
        }
        return try JSONParser.parse(Data(reply.json.utf8))
    }
}

/// Judges an answer against a contract case as the WebKitGTK page does (`Tests/HostPages/pwa-kit`).
enum ContractJudge {
    static func problems(_ testCase: JSONValue, _ answer: JSONValue) -> [String] {
        var problems: [String] = []
        if case .object(let expected)? = testCase["expect"] {
            guard answer["success"] == false else { return ["expected a failure \(JSONSerializer.serialize(.object(expected)))"] }
            let codes =
                expected["code"]?.arrayValue?.compactMap(\.stringValue) ?? [expected["code"]?.stringValue].compactMap { $0 }
            if let code = answer["code"]?.stringValue, !codes.isEmpty, !codes.contains(code) {
                problems.append("code \(code), want one of \(codes)")
            }
            if answer["error"]?.stringValue == nil { problems.append("a failure without an error text") }
            return problems
        }
        guard answer["success"] == true else { return ["expected success"] }
        let data = answer["data"] ?? .null
        for (raw, type) in testCase["reads"]?.objectValue ?? [:] {
            let optional = raw.hasPrefix("?")
            let path = optional ? String(raw.dropFirst()) : raw
            let allowed = (type.stringValue ?? "").split(separator: "|").map(String.init)
            for leaf in leaves(of: data, path) {
                guard let value = leaf.value else {
                    if !optional { problems.append("\(leaf.path) missing") }
                    continue
                }
                if !allowed.contains(jsonType(value)) { problems.append("\(leaf.path) is \(jsonType(value)), want \(type)") }
            }
        }
        for (path, allowed) in testCase["values"]?.objectValue ?? [:] {
            for leaf in leaves(of: data, path) {
                guard let value = leaf.value else { continue }
                if !(allowed.arrayValue ?? []).contains(value) {
                    problems.append("\(leaf.path) = \(JSONSerializer.serialize(value))")
                }
            }
        }
        for (path, expected) in testCase["equals"]?.objectValue ?? [:] {
            for leaf in leaves(of: data, path) where leaf.value != expected {
                problems.append("\(leaf.path) = \(leaf.value.map(JSONSerializer.serialize) ?? "missing"), want \(expected)")
            }
        }
        return problems
    }

    /// The values a path (`a.b[].c`) reaches; `nil` where a member is missing.
    static func leaves(of root: JSONValue, _ path: String) -> [(path: String, value: JSONValue?)] {
        var out: [(path: String, value: JSONValue?)] = [("data", root)]
        for part in path.split(separator: ".") {
            let each = part.hasSuffix("[]")
            let key = each ? String(part.dropLast(2)) : String(part)
            out = out.flatMap { leaf -> [(path: String, value: JSONValue?)] in
                guard let holder = leaf.value else { return [leaf] }
                let where_ = key.isEmpty ? leaf.path : "\(leaf.path).\(key)"
                let value = key.isEmpty ? holder : holder.objectValue?[key]
                guard each, let value else { return [(where_, value)] }
                return (value.arrayValue ?? []).enumerated().map { ("\(where_)[\($0.offset)]", $0.element) }
            }
        }
        return out
    }

    static func jsonType(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// `value` with each `@now±N[smhd]` string replaced by that instant, ISO 8601 with milliseconds.
    static func resolvingDates(_ value: JSONValue, now: Date) -> JSONValue {
        switch value {
        case .string(let text) where text.hasPrefix("@now"):
            var offset = 0.0
            let rest = text.dropFirst(4)
            if let sign = rest.first, let unit = rest.last, let amount = Double(rest.dropFirst().dropLast()) {
                let units: [String: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
                let seconds = units[String(unit)] ?? 0
                offset = (sign == "-" ? -1 : 1) * amount * seconds
            }
            return .string(now.addingTimeInterval(offset).formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
        case .array(let elements): return .array(elements.map { resolvingDates($0, now: now) })
        case .object(let members): return .object(members.mapValues { resolvingDates($0, now: now) })
        default: return value
        }
    }
}
