import Foundation
import PWAKitCore
import PWAKitModules

/// The built-in modules over a simulated device, every feature on, behind a real dispatcher.
struct ModuleHarness {
    let device: SimulatedDevice
    let dispatcher: BridgeDispatcher
    let page: PageLoadID
    let events: EventLog

    final class EventLog: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [BridgeOutput] = []
        func append(_ output: BridgeOutput) { lock.withLock { stored.append(output) } }
        var all: [BridgeOutput] { lock.withLock { stored } }
    }

    init(
        features: FeatureFlags = FeatureFlags(healthkit: true, iap: true), grant: BridgeGrant = .all,
        providers: ((SimulatedDevice) -> ModuleProviders)? = nil, payments: PaymentsSection? = nil,
        identifiers: IdentifiersSection? = nil
    ) async throws {
        let device = SimulatedDevice()
        self.device = device
        let registry = try ModuleRegistry(
            modules: BuiltInModules.all(providers?(device) ?? .simulated(device)), features: features)
        let configuration = PWAConfiguration(
            app: AppSection(name: "Harness", bundleId: "dev.pwakit.harness", startUrl: "https://app.example.com/"),
            origins: OriginsSection(allowed: ["app.example.com"]), features: features, payments: payments,
            identifiers: identifiers)
        dispatcher = BridgeDispatcher(registry: registry, configuration: configuration, version: "3.1.0", build: "77")
        let events = EventLog()
        self.events = events
        page = await dispatcher.openPage(origin: "https://app.example.com", grant: grant) { events.append($0) }
    }

    /// Calls `module.action` with `payload` and returns the response as JSON.
    func call(_ module: String, _ action: String, _ payload: JSONValue? = nil, id: String = "1") async throws -> JSONValue {
        var message: [String: JSONValue] = ["id": .string(id), "module": .string(module), "action": .string(action)]
        if let payload { message["payload"] = payload }
        let reply = await dispatcher.handle(JSONSerializer.serialize(.object(message)), from: page)
        guard let reply else { throw HarnessError(message: "no reply for \(module).\(action)") }
        return try JSONParser.parse(Data(reply.json.utf8))
    }

    /// The data of a successful call; fails the test's expectation otherwise.
    func data(_ module: String, _ action: String, _ payload: JSONValue? = nil) async throws -> JSONValue? {
        let response = try await call(module, action, payload)
        guard response["success"] == .bool(true) else {
            throw HarnessError(message: "\(module).\(action) failed: \(JSONSerializer.serialize(response))")
        }
        return response["data"]
    }

    /// The error code of a failed call, or nil when it succeeded.
    func code(_ module: String, _ action: String, _ payload: JSONValue? = nil) async throws -> String? {
        try await call(module, action, payload)["code"]?.stringValue
    }

    /// The `details.path` of a failed call.
    func path(_ module: String, _ action: String, _ payload: JSONValue?) async throws -> String? {
        try await call(module, action, payload)["details"]?["path"]?.stringValue
    }
}

struct HarnessError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
