import PWAKitTesting
import Synchronization

@testable import PWAKitCore

/// A page load on a dispatcher, recording everything delivered to it.
struct TestPage {
    let dispatcher: BridgeDispatcher
    let id: PageLoadID

    static func open(
        _ dispatcher: BridgeDispatcher, origin: String = "https://app.example.com", grant: BridgeGrant = .all
    ) async -> TestPage {
        let box = Box()
        let id = await dispatcher.openPage(origin: origin, grant: grant) { output in
            box.outputs.withLock { $0.append(output) }
        }
        return TestPage(dispatcher: dispatcher, id: id, box: box)
    }

    private final class Box: Sendable {
        let outputs = Mutex<[BridgeOutput]>([])
    }

    private let box: Box

    private init(dispatcher: BridgeDispatcher, id: PageLoadID, box: Box) {
        self.dispatcher = dispatcher
        self.id = id
        self.box = box
    }

    /// Everything delivered through the page's sink so far.
    var outputs: [BridgeOutput] { box.outputs.withLock { $0 } }

    /// Sends `message` and returns the JSON text of its answer, or nil.
    func send(_ message: String) async -> String? {
        await dispatcher.handle(message, from: id)?.json
    }
}

func makeDispatcher(
    modules: [any PWAModule] = [EchoModule()], disabled: [any PWAModule.Type] = [],
    limits: BridgeLimits = BridgeLimits(), telemetry: BridgeTelemetry = BridgeTelemetry(),
    clock: ManualClock = ManualClock()
) throws -> BridgeDispatcher {
    var registry = ModuleRegistry()
    for module in modules { try registry.register(module) }
    for module in disabled { try registry.registerDisabled(module, flag: module.featureFlag) }
    return BridgeDispatcher(
        registry: registry, configuration: .testing, limits: limits, telemetry: telemetry, clock: clock)
}

/// Yields until `condition` holds (never sleeps); fails the wait after many turns.
func eventually(_ condition: () async -> Bool) async -> Bool {
    for _ in 0..<100_000 {
        if await condition() { return true }
        await Task.yield()
    }
    return false
}

extension PWAConfiguration {
    /// A small valid configuration for tests.
    static let testing = PWAConfiguration(
        app: AppSection(name: "Test", bundleId: "dev.pwakit.test", startUrl: "https://app.example.com/"),
        origins: OriginsSection(
            allowed: ["app.example.com", "*.trusted.example"], auth: ["login.example.com"], external: ["elsewhere.example"]))
}
