import PWAKitTesting
import Synchronization
import Testing

@testable import PWAKitCore

@Suite struct DispatcherTests {
    @Test func answersACallWithTheExactSeedShape() async throws {
        let page = await TestPage.open(try makeDispatcher())
        let reply = await page.send(#"{"id":"1","module":"echo","action":"echo","payload":{"b":[1,2],"a":"x"}}"#)
        #expect(reply == #"{"id":"1","success":true,"data":{"a":"x","b":[1,2]}}"#)
        let empty = await page.send(#"{"id":"2","module":"echo","action":"nothing"}"#)
        #expect(empty == #"{"id":"2","success":true}"#)
    }

    @Test func acceptsAMessagePostedAsAJSONString() async throws {
        let page = await TestPage.open(try makeDispatcher())
        let reply = await page.send(#""{\"id\":\"s\",\"module\":\"echo\",\"action\":\"echo\",\"payload\":5}""#)
        #expect(reply == #"{"id":"s","success":true,"data":5}"#)
    }

    @Test func moduleErrorsCarryCodeMessageAndDetails() async throws {
        let page = await TestPage.open(try makeDispatcher())
        let failed = await page.send(#"{"id":"f","module":"echo","action":"fail"}"#)
        #expect(failed == #"{"id":"f","success":false,"error":"it failed","code":"echo.failed","details":{"why":"asked to"}}"#)
        let crashed = await page.send(#"{"id":"c","module":"echo","action":"crash"}"#)
        #expect(crashed == #"{"id":"c","success":false,"error":"echo.crash failed: oops","code":"module_error"}"#)
    }

    @Test func unknownModuleUnavailableAndUnknownAction() async throws {
        let page = await TestPage.open(try makeDispatcher(disabled: [GreeterModule.self]))
        #expect(
            await page.send(#"{"id":"1","module":"nope","action":"x"}"#)
                == #"{"id":"1","success":false,"error":"module: no module named \"nope\"","code":"unknown_module","details":{"path":"module"}}"#
        )
        #expect(
            await page.send(#"{"id":"2","module":"greeter","action":"hello"}"#)
                == #"{"id":"2","success":false,"error":"module \"greeter\" is not available in this app (features.share is false)","code":"unavailable"}"#
        )
        #expect(
            await page.send(#"{"id":"3","module":"echo","action":"nope"}"#)
                == #"{"id":"3","success":false,"error":"action: echo has no action \"nope\"","code":"unknown_action","details":{"path":"action"}}"#
        )
    }

    @Test func grantsAreEnforcedPerOrigin() async throws {
        let dispatcher = try makeDispatcher(modules: [EchoModule(), GreeterModule()])
        let denied = await TestPage.open(dispatcher, origin: "https://evil.example", grant: .denied)
        let reply = await denied.send(#"{"id":"1","module":"echo","action":"echo"}"#)
        #expect(reply?.contains(#""code":"origin_not_allowed""#) == true)
        let narrow = await TestPage.open(dispatcher, grant: .only(["greeter.ping", "echo"]))
        #expect(
            await narrow.send(#"{"id":"2","module":"greeter","action":"ping"}"#) == #"{"id":"2","success":true,"data":"pong"}"#)
        #expect(
            await narrow.send(#"{"id":"3","module":"echo","action":"echo","payload":1}"#)
                == #"{"id":"3","success":true,"data":1}"#)
        let refused = await narrow.send(#"{"id":"4","module":"greeter","action":"hello","payload":{"name":"a"}}"#)
        #expect(refused?.contains(#""code":"permission_denied""#) == true)
    }

    @Test func typedModulesValidatePayloadsAndNameTheField() async throws {
        let page = await TestPage.open(try makeDispatcher(modules: [GreeterModule()]))
        #expect(
            await page.send(#"{"id":"1","module":"greeter","action":"hello","payload":{"name":"Ada","times":2}}"#)
                == #"{"id":"1","success":true,"data":{"text":"Hello, Ada! Hello, Ada! "}}"#)
        #expect(
            await page.send(#"{"id":"2","module":"greeter","action":"hello","payload":{"name":7}}"#)
                == #"{"id":"2","success":false,"error":"payload.name: expected a string","code":"invalid_payload","details":{"path":"payload.name"}}"#
        )
        #expect(
            await page.send(#"{"id":"3","module":"greeter","action":"hello","payload":{}}"#)
                == #"{"id":"3","success":false,"error":"payload.name: is required","code":"invalid_payload","details":{"path":"payload.name"}}"#
        )
        #expect(
            await page.send(#"{"id":"4","module":"greeter","action":"hello"}"#)
                == #"{"id":"4","success":false,"error":"payload: is required (missing \"name\")","code":"invalid_payload","details":{"path":"payload"}}"#
        )
        #expect(
            await page.send(#"{"id":"5","module":"greeter","action":"hello","payload":{"name":"a","tags":["x",3]}}"#)
                == #"{"id":"5","success":false,"error":"payload.tags[1]: expected a string","code":"invalid_payload","details":{"path":"payload.tags[1]"}}"#
        )
        #expect(
            await page.send(#"{"id":"6","module":"greeter","action":"hello","payload":{"name":"a","times":0}}"#)
                == #"{"id":"6","success":false,"error":"payload.times: must be positive","code":"invalid_payload","details":{"path":"payload.times"}}"#
        )
        #expect(
            await page.send(#"{"id":"7","module":"greeter","action":"ping","payload":[1]}"#)
                == #"{"id":"7","success":false,"error":"payload: this action takes no payload, got array","code":"invalid_payload","details":{"path":"payload"}}"#
        )
        #expect(
            await page.send(#"{"id":"8","module":"greeter","action":"ping","payload":{}}"#)
                == #"{"id":"8","success":true,"data":"pong"}"#)
        #expect(await page.send(#"{"id":"9","module":"greeter","action":"quiet"}"#) == #"{"id":"9","success":true}"#)
        #expect(GreeterModule.supportedActions == ["hello", "ping", "quiet"])
    }

    @Test func aSlowModuleDoesNotStallOthers() async throws {
        let gate = Gate()
        let page = await TestPage.open(try makeDispatcher(modules: [EchoModule(), SlowModule(gate: gate)]))
        async let slow = page.send(#"{"id":"slow","module":"slow","action":"wait"}"#)
        #expect(await eventually { gate.waiting == 1 })
        for index in 0..<20 {
            #expect(
                await page.send(#"{"id":"e\#(index)","module":"echo","action":"echo","payload":\#(index)}"#)
                    == #"{"id":"e\#(index)","success":true,"data":\#(index)}"#)
        }
        gate.open()
        #expect(await slow == #"{"id":"slow","success":true,"data":"released"}"#)
    }

    @Test func callsTimeOutAtTheDefaultDeadlineOrTheirOwn() async throws {
        let clock = ManualClock()
        let gate = Gate()
        let dispatcher = try makeDispatcher(
            modules: [SlowModule(gate: gate)], limits: BridgeLimits(defaultTimeout: .seconds(30)), clock: clock)
        let page = await TestPage.open(dispatcher)
        async let quick = page.send(#"{"id":"q","module":"slow","action":"stubborn","timeoutMs":250}"#)
        async let normal = page.send(#"{"id":"n","module":"slow","action":"wait"}"#)
        #expect(await eventually { await dispatcher.inFlightCount == 2 && gate.waiting == 2 })
        clock.advance(by: .milliseconds(249))
        #expect(await dispatcher.inFlightCount == 2)
        clock.advance(by: .milliseconds(1))
        // A handler that ignores cancellation still gets its timeout answer on time.
        #expect(
            await quick
                == #"{"id":"q","success":false,"error":"slow.stubborn did not finish within 250 ms","code":"timeout","details":{"timeoutMs":250}}"#
        )
        clock.advance(by: .seconds(30))
        #expect(
            await normal
                == #"{"id":"n","success":false,"error":"slow.wait did not finish within 30000 ms","code":"timeout","details":{"timeoutMs":30000}}"#
        )
        gate.open()
        #expect(await eventually { await dispatcher.inFlightCount == 0 })
    }

    @Test func aCancelMessageCancelsThatCall() async throws {
        let gate = Gate()
        let dispatcher = try makeDispatcher(modules: [SlowModule(gate: gate)])
        let page = await TestPage.open(dispatcher)
        async let call = page.send(#"{"id":"x","module":"slow","action":"wait"}"#)
        #expect(await eventually { await dispatcher.inFlightCount == 1 })
        #expect(await page.send(#"{"id":"x","cancel":true}"#) == nil)
        #expect(await call == #"{"id":"x","success":false,"error":"the page cancelled the call","code":"cancelled"}"#)
        // Cancelling an id that is not in flight is ignored.
        #expect(await page.send(#"{"id":"x","cancel":true}"#) == nil)
        #expect(
            await page.send(#"{"id":"y","cancel":false}"#)
                == #"{"id":"y","success":false,"error":"cancel: must be true when present","code":"invalid_message","details":{"path":"cancel"}}"#
        )
        gate.open()
    }

    @Test func closingAPageCancelsItsCallsAndDropsLateAnswers() async throws {
        let gate = Gate()
        let dispatcher = try makeDispatcher(modules: [SlowModule(gate: gate), EchoModule()])
        let first = await TestPage.open(dispatcher)
        let second = await TestPage.open(dispatcher)
        async let dropped = first.send(#"{"id":"1","module":"slow","action":"stubborn"}"#)
        async let kept = second.send(#"{"id":"1","module":"slow","action":"stubborn"}"#)
        #expect(await eventually { gate.waiting == 2 })
        await dispatcher.closePage(first.id)
        #expect(await dropped == nil)
        #expect(await first.send(#"{"id":"2","module":"echo","action":"echo"}"#) == nil)
        gate.open()
        #expect(await kept == #"{"id":"1","success":true,"data":"late"}"#)
        #expect(first.outputs.isEmpty)
    }

    @Test func modulesEmitEventsToTheirPageOnly() async throws {
        let dispatcher = try makeDispatcher()
        let page = await TestPage.open(dispatcher)
        let other = await TestPage.open(dispatcher)
        #expect(
            await page.send(#"{"id":"1","module":"echo","action":"emit","payload":{"n":1}}"#)
                == #"{"id":"1","success":true,"data":true}"#)
        #expect(await eventually { page.outputs.count == 1 })
        #expect(page.outputs.first?.json == #"{"type":"echo.event","data":{"n":1}}"#)
        #expect(
            page.outputs.first?.javaScript.hasPrefix("window.pwakit&&window.pwakit._handleEvent&&window.pwakit._handleEvent({")
                == true)
        #expect(other.outputs.isEmpty)
    }

    @Test func receiveDeliversThroughThePageSink() async throws {
        let dispatcher = try makeDispatcher()
        let page = await TestPage.open(dispatcher)
        dispatcher.receive(#"{"id":"r","module":"echo","action":"echo","payload":"hi"}"#, from: page.id)
        #expect(await eventually { page.outputs.count == 1 })
        #expect(page.outputs.first?.json == #"{"id":"r","success":true,"data":"hi"}"#)
        #expect(
            page.outputs.first?.javaScript
                == #"window.pwakit&&window.pwakit._handleResponse&&window.pwakit._handleResponse({"id":"r","success":true,"data":"hi"});"#
        )
    }

    @Test func duplicateInFlightIdsAndTheInFlightLimit() async throws {
        let gate = Gate()
        let dispatcher = try makeDispatcher(modules: [SlowModule(gate: gate)], limits: BridgeLimits(maxInFlightPerPage: 2))
        let page = await TestPage.open(dispatcher)
        async let a = page.send(#"{"id":"a","module":"slow","action":"wait"}"#)
        #expect(await eventually { await dispatcher.inFlightCount == 1 })
        #expect(
            await page.send(#"{"id":"a","module":"slow","action":"wait"}"#)
                == #"{"id":"a","success":false,"error":"id: a call with id \"a\" is already in flight","code":"invalid_message","details":{"path":"id"}}"#
        )
        async let b = page.send(#"{"id":"b","module":"slow","action":"wait"}"#)
        #expect(await eventually { await dispatcher.inFlightCount == 2 })
        #expect(
            await page.send(#"{"id":"c","module":"slow","action":"wait"}"#)
                == #"{"id":"c","success":false,"error":"more than 2 calls in flight","code":"too_many_calls"}"#)
        gate.open()
        #expect(await a != nil)
        #expect(await b != nil)
    }

    @Test func oversizedMessagesAreRefusedWithTheirId() async throws {
        let page = await TestPage.open(try makeDispatcher(limits: BridgeLimits(maxMessageBytes: 100)))
        let big = String(repeating: "x", count: 200)
        let message = #"{"id":"big","module":"echo","action":"echo","payload":"\#(big)"}"#
        let size = message.utf8.count
        #expect(
            await page.send(message)
                == #"{"id":"big","success":false,"error":"message is \#(size) bytes; the limit is 100","code":"payload_too_large","details":{"limit":100,"size":\#(size)}}"#
        )
        let output = await page.dispatcher.handle(#"{"module":"echo","payload":"\#(big)"}"#, from: page.id)
        #expect(output?.json.hasPrefix(#"{"type":"bridge.error","data":{"code":"payload_too_large""#) == true)
    }

    @Test func telemetryRecordsEveryCall() async throws {
        let records = Mutex<[BridgeCallRecord]>([])
        let telemetry = BridgeTelemetry(observer: { record in records.withLock { $0.append(record) } })
        let page = await TestPage.open(try makeDispatcher(telemetry: telemetry))
        let first = #"{"id":"1","module":"echo","action":"echo","payload":"abc"}"#
        _ = await page.send(first)
        _ = await page.send(#"{"id":"2","module":"echo","action":"fail"}"#)
        _ = await page.send(#"not json"#)
        let seen = records.withLock { $0 }
        #expect(seen.map(\.outcome) == ["ok", "echo.failed", "invalid_message"])
        #expect(seen[0].module == "echo" && seen[0].action == "echo")
        #expect(seen[0].requestBytes == first.utf8.count)
        #expect(seen[0].responseBytes == #"{"id":"1","success":true,"data":"abc"}"#.utf8.count)
        #expect(seen[2].module == "-")
    }

    @Test func registryRefusesDuplicateNames() throws {
        var registry = ModuleRegistry()
        try registry.register(EchoModule())
        #expect(throws: RegistryError.self) { try registry.register(EchoModule()) }
        #expect(throws: RegistryError.self) { try registry.registerDisabled(EchoModule.self, flag: nil) }
        try registry.registerDisabled(GreeterModule.self, flag: "share")
        #expect(registry.descriptors.map(\.name) == ["echo", "greeter"])
        #expect(
            registry.descriptors[1]
                == ModuleDescriptor(name: "greeter", actions: ["hello", "ping", "quiet"], enabled: false, featureFlag: "share"))
    }

    @Test func handshakeIsStableAndReflectsTheSchema() throws {
        var registry = ModuleRegistry()
        try registry.register(EchoModule())
        let first = BridgeHandshake(registry: registry)
        #expect(first == BridgeHandshake(registry: registry))
        #expect(first.version == 1)
        #expect(first.schemaHash.count == 16)
        try registry.register(GreeterModule())
        #expect(BridgeHandshake(registry: registry).schemaHash != first.schemaHash)
        #expect(first.javaScript.contains("Object.freeze({\"capabilities\":[\"cancel\""))
    }
}
