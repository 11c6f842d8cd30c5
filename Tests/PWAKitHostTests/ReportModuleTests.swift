import PWAKitCore
import Synchronization
import Testing

@testable import PWAKitHost

/// The `report` module refuses a verdict or a line it cannot trust with `invalid_payload` naming
/// the field actually at fault, and hands the host nothing for it.
@Suite struct ReportModuleTests {
    /// What the module handed the host.
    final class Entries: Sendable {
        let all = Mutex<[ReportModule.Entry]>([])
    }

    /// A page on a dispatcher with only the `report` module, recording into `entries`.
    func page(_ entries: Entries) async throws -> (BridgeDispatcher, PageLoadID) {
        var registry = ModuleRegistry()
        try registry.register(ReportModule { entry in entries.all.withLock { $0.append(entry) } })
        let configuration = PWAConfiguration(
            app: AppSection(name: "Report", bundleId: "dev.pwakit.report", startUrl: "https://app.example.com/"),
            origins: OriginsSection(allowed: ["app.example.com"]))
        let dispatcher = BridgeDispatcher(registry: registry, configuration: configuration)
        let page = await dispatcher.openPage(origin: "https://app.example.com", grant: .all) { _ in }
        return (dispatcher, page)
    }

    /// The answer to `report.<action>` with `payload` (JSON text), parsed.
    func call(_ action: String, _ payload: String, on target: (BridgeDispatcher, PageLoadID)) async throws -> JSONValue {
        let message = #"{"id":"r","module":"report","action":"\#(action)","payload":\#(payload)}"#
        let reply = try #require(await target.0.handle(message, from: target.1))
        return try JSONParser.parse(reply.json)
    }

    /// Malformed and hostile verdicts, and the field each must be blamed on.
    static let malformedVerdicts: [(String, String)] = [
        (#"{"passed":-1,"failed":0}"#, "payload.passed"),
        (#"{"passed":3,"failed":-2}"#, "payload.failed"),
        (#"{"passed":-1,"failed":-1}"#, "payload.passed"),
        (#"{"passed":-9223372036854775808,"failed":0}"#, "payload.passed"),
        (#"{"passed":"12","failed":0}"#, "payload.passed"),
        (#"{"passed":12,"failed":true}"#, "payload.failed"),
        (#"{"passed":null,"failed":0}"#, "payload.passed"),
        (#"{"passed":12,"failed":[0]}"#, "payload.failed"),
        (#"{"passed":1.5,"failed":0}"#, "payload.passed"),
        (#"{"passed":1e300,"failed":0}"#, "payload.passed"),
        (#"{"passed":12}"#, "payload.failed"),
        (#"{"failed":0}"#, "payload.passed"),
        (#""12 passed""#, "payload"),
    ]

    @Test func aMalformedVerdictIsRefusedNamingTheFieldAtFault() async throws {
        let entries = Entries()
        let target = try await page(entries)
        for (payload, path) in Self.malformedVerdicts {
            let response = try await call("finish", payload, on: target)
            #expect(response["code"] == "invalid_payload", "\(payload): \(JSONSerializer.serialize(response))")
            #expect(
                response["details"]?["path"]?.stringValue == path, "\(payload): \(JSONSerializer.serialize(response))")
        }
        #expect(entries.all.withLock { $0 }.isEmpty, "a refused verdict must not end the run")
        let accepted = try await call("finish", #"{"passed":12,"failed":0}"#, on: target)
        #expect(accepted["success"] == true, "\(JSONSerializer.serialize(accepted))")
        #expect(entries.all.withLock { $0 }.count == 1)
    }

    /// `finish` takes no string field (`data` is any JSON, bounded by the message limit); the
    /// other actions' fields are named too.
    @Test func theOtherActionsNameTheirFieldsToo() async throws {
        let entries = Entries()
        let target = try await page(entries)
        let cases: [(String, String, String)] = [
            ("log", #"{"data":1}"#, "payload.message"),
            ("log", #"{"message":7}"#, "payload.message"),
            ("hold", #"{"ms":-1}"#, "payload.ms"),
            ("hold", #"{"ms":600001}"#, "payload.ms"),
            ("hold", #"{"ms":10,"label":false}"#, "payload.label"),
        ]
        for (action, payload, path) in cases {
            let response = try await call(action, payload, on: target)
            #expect(response["code"] == "invalid_payload", "\(action) \(payload): \(JSONSerializer.serialize(response))")
            #expect(response["details"]?["path"]?.stringValue == path, "\(action) \(payload)")
        }
        #expect(entries.all.withLock { $0 }.isEmpty)
    }
}
