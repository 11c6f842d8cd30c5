import Foundation
import PWAKitCore
import PWAKitModules
import Testing

@Suite struct SimulatedDeviceTests {
    @Test func biometricFailuresAreDistinctErrorCodes() async throws {
        let harness = try await ModuleHarness()
        await harness.device.scriptBiometrics([.userCancel, .lockout, nil, .fallback])
        let prompt: JSONValue = ["reason": "Pay"]
        #expect(try await harness.code("biometrics", "authenticate", prompt) == "biometrics.user_cancel")
        #expect(try await harness.code("biometrics", "authenticate", prompt) == "biometrics.lockout")
        #expect(try await harness.data("biometrics", "authenticate", prompt)?["authenticated"] == true)
        #expect(try await harness.code("biometrics", "authenticate", prompt) == "biometrics.fallback")
        await harness.device.scriptBiometrics([], type: .touchID, enrolled: false)
        #expect(try await harness.data("biometrics", "isAvailable", nil) == ["available": false, "biometryType": "touchID"])
        #expect(try await harness.code("biometrics", "authenticate", prompt) == "biometrics.not_enrolled")
        #expect(try await harness.path("biometrics", "authenticate", ["reason": ""]) == "payload.reason")
    }

    @Test func permissionsAreAskedOnlyWhenUndetermined() async throws {
        let harness = try await ModuleHarness()
        await harness.device.setPermission(.camera, state: .notDetermined, answer: .denied)
        await harness.device.setPermission(.location, state: .restricted)
        #expect(try await harness.data("camera", "check")?["state"] == "notDetermined")
        #expect(try await harness.data("camera", "request")?["state"] == "denied")
        #expect(try await harness.data("camera", "request")?["state"] == "denied")
        #expect(try await harness.data("location", "request")?["state"] == "restricted")
        #expect(try await harness.data("microphone", "request")?["state"] == "granted")
        #expect(await harness.device.log == ["camera.request denied", "microphone.request granted"])
    }

    @Test func purchasesReportNormalOutcomesAsStatusesAndFailuresAsErrors() async throws {
        let harness = try await ModuleHarness()
        await harness.device.scriptPurchases([.cancelled, .purchased])
        let pro: JSONValue = ["productId": "com.example.pro.monthly"]
        #expect(try await harness.data("iap", "purchase", pro)?["status"] == "cancelled")
        let bought = try await harness.data("iap", "purchase", pro)
        #expect(bought?["status"] == "purchased")
        #expect(bought?["transaction"]?["productId"] == "com.example.pro.monthly")
        #expect(try await harness.data("iap", "getEntitlements")?["entitlements"]?.arrayValue?.count == 1)
        #expect(try await harness.code("iap", "purchase", ["productId": "nope"]) == "iap.product_not_found")
        let products = try await harness.data("iap", "getProducts", ["productIds": ["com.example.unlock", "unknown"]])
        #expect(products?["products"]?.arrayValue?.map { $0["id"] } == ["com.example.unlock"])
    }

    @Test func shareOutcomesAndRules() async throws {
        let harness = try await ModuleHarness()
        await harness.device.scriptShare([false])
        #expect(try await harness.data("share", "share", ["text": "hi"])?["shared"] == false)
        #expect(try await harness.data("share", "share", ["url": "https://example.com"])?["shared"] == true)
        #expect(try await harness.path("share", "share", ["title": "only a title"]) == "payload")
        #expect(try await harness.path("share", "share", ["url": "not a url"]) == "payload.url")
        let file: JSONValue = ["name": "../etc/passwd", "type": "text/plain", "data": "aGk="]
        #expect(try await harness.path("share", "share", ["files": [file]]) == "payload.files[0].name")
        #expect(
            try await harness.path("share", "share", ["files": [["name": "a", "type": "text", "data": "aGk="]]])
                == "payload.files[0].type")
        #expect(
            try await harness.path("share", "share", ["files": [["name": "a", "type": "text/plain", "data": "@@@"]]])
                == "payload.files[0].data")
        #expect(try await harness.data("share", "canShare", [:])?["canShare"] == true)
        await harness.device.scriptShare([], available: false)
        #expect(try await harness.code("share", "share", ["text": "hi"]) == "share.unavailable")
    }

    @Test func healthDataNeedsAuthorizationAndValidRanges() async throws {
        let harness = try await ModuleHarness()
        let day: JSONValue = ["startDate": "2026-05-01T00:00:00Z", "endDate": "2026-05-02T00:00:00Z"]
        // As on HealthKit, which never reveals read authorization: a type not allowed reads as no samples.
        #expect(try await harness.data("healthkit", "querySteps", day)?["samples"] == [])
        #expect(try await harness.data("healthkit", "queryStepCount", day)?["totalSteps"] == 0)
        let workout: JSONValue = [
            "type": "running", "startDate": "2026-05-01T07:00:00Z", "endDate": "2026-05-01T07:30:00Z",
        ]
        #expect(try await harness.code("healthkit", "saveWorkout", workout) == "healthkit.not_authorized")
        _ = try await harness.data("healthkit", "requestAuthorization", ["read": ["steps", "sleep"]])
        let steps = try await harness.data("healthkit", "querySteps", day)?["samples"]?.arrayValue ?? []
        #expect(steps.count == 24)
        let total = try await harness.data("healthkit", "queryStepCount", day)?["count"]?.intValue
        #expect(total == Int(steps.compactMap { $0["value"]?.doubleValue }.reduce(0, +)))
        #expect(
            try await harness.path(
                "healthkit", "querySteps", ["startDate": "2026-05-02T00:00:00Z", "endDate": "2026-05-01T00:00:00Z"])
                == "payload.endDate")
        #expect(
            try await harness.path(
                "healthkit", "querySteps", ["startDate": "2020-01-01T00:00:00Z", "endDate": "2026-05-01T00:00:00Z"])
                == "payload.endDate")
        #expect(
            try await harness.path("healthkit", "querySteps", ["startDate": "May 1", "endDate": "2026-05-01T00:00:00Z"])
                == "payload.startDate")
        #expect(
            try await harness.path("healthkit", "requestAuthorization", ["read": [], "write": ["steps"]]) == "payload.write[0]")
        #expect(
            try await harness.code(
                "healthkit", "saveWorkout",
                ["type": "running", "startDate": "2026-05-01T07:00:00Z", "endDate": "2026-05-01T08:00:00Z"])
                == "healthkit.not_authorized")
    }

    @Test func secretsAreKeptPerKeyAndKeysAreChecked() async throws {
        let harness = try await ModuleHarness()
        _ = try await harness.data("secureStorage", "set", ["key": "token", "value": "s3cret"])
        #expect(try await harness.data("secureStorage", "get", ["key": "token"]) == ["value": "s3cret"])
        #expect(try await harness.data("secureStorage", "delete", ["key": "token"]) == ["deleted": true])
        #expect(try await harness.data("secureStorage", "get", ["key": "token"]) == ["value": nil])
        #expect(try await harness.path("secureStorage", "get", ["key": "a\u{0}b"]) == "payload.key")
        #expect(
            try await harness.path("secureStorage", "get", ["key": .string(String(repeating: "k", count: 257))]) == "payload.key")
    }

    @Test func secretsAreKeptUnderTheConfiguredKeychainService() async throws {
        let store = InMemorySecureStore()
        let harness = try await ModuleHarness(
            providers: { .simulated($0, secureStore: store) }, identifiers: IdentifiersSection(keychainService: "harness-session")
        )
        _ = try await harness.data("secureStorage", "set", ["key": "token", "value": "s3cret"])
        #expect(await store.value(for: "token", app: "harness-session") == "s3cret")
        #expect(await store.value(for: "token", app: "dev.pwakit.harness") == nil)
        let plainStore = InMemorySecureStore()
        let plain = try await ModuleHarness(providers: { .simulated($0, secureStore: plainStore) })
        _ = try await plain.data("secureStorage", "set", ["key": "token", "value": "x"])
        #expect(await plainStore.value(for: "token", app: "dev.pwakit.harness") == "x")
    }

    @Test func platformInfoSaysWhatIsSimulated() async throws {
        let harness = try await ModuleHarness()
        let info = try await harness.data("platform", "getInfo")
        #expect(info?["providers"]?["haptics"] == "simulated")
        #expect(info?["providers"]?["clipboard"] == "simulated")
        #expect(info?["secureStorage"]?.stringValue?.hasPrefix("memory") == true)
        #expect(
            try await harness.data("app", "getVersion")
                == ["version": "3.1.0", "build": "77", "pwaKitVersion": .string(PWAKit.version)])
    }

    @Test func scriptsParseAndNameTheFieldAtFault() throws {
        let script = try SimulationScript.parse(
            Data(
                #"{"biometrics":{"type":"touchID","outcomes":["user_cancel","success"]},"permissions":{"camera":"denied"},"pushes":[{"type":"received","title":"Hi"}]}"#
                    .utf8))
        #expect(script.biometrics?.type == .touchID)
        #expect(script.pushes?.first?.title == "Hi")
        func message(_ text: String) -> String {
            do {
                _ = try SimulationScript.parse(Data(text.utf8))
                return ""
            } catch {
                return error.message
            }
        }
        #expect(message(#"{"permissions":{"teleport":"granted"}}"#).contains("permissions.teleport"))
        #expect(message(#"{"permissions":{"camera":"maybe"}}"#).contains("permissions.camera"))
        #expect(message(#"{"biometrics":{"outcomes":["sneeze"]}}"#).contains("biometrics.outcomes[0]"))
        #expect(message(#"{"store":{"purchaseOutcomes":[1]}}"#).contains("store.purchaseOutcomes[0]"))
        #expect(message("{not json").contains("simulation script"))
    }

    @Test func pushesQueueUntilAPageIsAttached() async throws {
        let relay = PushRelay()
        for index in 0..<(PushRelay.capacity + 3) {
            await relay.receive(PushEvent(type: .received, id: "p\(index)"))
        }
        #expect(await relay.dropped == 3)
        let log = ModuleHarness.EventLog()
        await relay.attach { log.append(.event($0)) }
        #expect(log.all.count == PushRelay.capacity)
        #expect(log.all.first == .event(BridgeEvent(type: "push", data: ["type": "received", "id": "p3"])))
        await relay.receive(PushEvent(type: .tapped, id: "late"))
        #expect(log.all.count == PushRelay.capacity + 1)
        await relay.detach()
        await relay.receive(PushEvent(type: .tapped, id: "queued"))
        #expect(await relay.queued.map(\.id) == ["queued"])
    }

    @Test func pushesHandedBackGoToTheNextPageAheadOfNewerOnes() async throws {
        let relay = PushRelay()
        let first = ModuleHarness.EventLog()
        await relay.attach { first.append(.event($0)) }
        await relay.receive(PushEvent(type: .received, id: "a"))
        await relay.receive(PushEvent(type: .received, id: "b"))
        // The page navigated away before it took them.
        await relay.detach()
        await relay.receive(PushEvent(type: .received, id: "c"))
        for case .event(let event) in first.all { await relay.requeue(event) }
        #expect(await relay.queued.map(\.id) == ["a", "b", "c"])
        // Not a push of this relay: ignored.
        await relay.requeue(BridgeEvent(type: "visibilitychange", data: ["visible": true]))
        await relay.requeue(BridgeEvent(type: "push", data: "garbage"))
        #expect(await relay.queued.map(\.id) == ["a", "b", "c"])
        let second = ModuleHarness.EventLog()
        await relay.attach { second.append(.event($0)) }
        #expect(second.all.count == 3)
        #expect(second.all.first == .event(BridgeEvent(type: "push", data: ["type": "received", "id": "a"])))
        // Handed back while a page is attached: delivered at once.
        await relay.requeue(BridgeEvent(type: "push", data: ["type": "tapped", "id": "d"]))
        #expect(second.all.count == 4)
        #expect(await relay.queued.isEmpty)
    }

    @Test func aFullQueueDropsAPushHandedBackAndCountsIt() async throws {
        let relay = PushRelay()
        for index in 0..<PushRelay.capacity { await relay.receive(PushEvent(type: .received, id: "p\(index)")) }
        await relay.requeue(BridgeEvent(type: "push", data: ["type": "received", "id": "old"]))
        #expect(await relay.dropped == 1)
        #expect(await relay.queued.count == PushRelay.capacity)
        #expect(await relay.queued.first?.id == "p0")
    }
}
