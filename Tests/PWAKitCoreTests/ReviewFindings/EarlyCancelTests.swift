import Testing

@testable import PWAKitCore

/// A page sends a call and then its cancel; when the host hands both to the dispatcher
/// concurrently (``BridgeDispatcher/receive(_:from:)``, `pwakit bridge`), the cancel can
/// arrive first. It must still cancel the call.
@Suite struct EarlyCancelTests {
    @Test func aCancelThatArrivesBeforeItsCallCancelsIt() async throws {
        let gate = Gate()
        let dispatcher = try makeDispatcher(modules: [SlowModule(gate: gate)])
        let page = await TestPage.open(dispatcher)
        #expect(await page.send(#"{"id":"x","cancel":true}"#) == nil)
        #expect(
            await page.send(#"{"id":"x","module":"slow","action":"stubborn"}"#)
                == #"{"id":"x","success":false,"error":"the page cancelled the call","code":"cancelled"}"#)
        #expect(await dispatcher.inFlightCount == 0)
        #expect(gate.waiting == 0)
        // The early cancel is used up: the id can be used again.
        async let again = page.send(#"{"id":"x","module":"slow","action":"stubborn"}"#)
        #expect(await eventually { await dispatcher.inFlightCount == 1 })
        gate.open()
        #expect(await again == #"{"id":"x","success":true,"data":"late"}"#)
    }

    @Test func receivedCallsAreCancelledWhateverOrderTheyArriveIn() async throws {
        let gate = Gate()
        let dispatcher = try makeDispatcher(modules: [SlowModule(gate: gate)])
        let page = await TestPage.open(dispatcher)
        let padding = String(repeating: "p", count: 20_000)
        for index in 0..<100 {
            dispatcher.receive(
                #"{"id":"c\#(index)","module":"slow","action":"stubborn","payload":"\#(padding)"}"#, from: page.id)
            dispatcher.receive(#"{"id":"c\#(index)","cancel":true}"#, from: page.id)
        }
        #expect(await eventually { page.outputs.count == 100 })
        #expect(await dispatcher.inFlightCount == 0)
        #expect(page.outputs.allSatisfy { $0.json.contains(#""code":"cancelled""#) })
        gate.open()
    }

    @Test func aCancelForAnAnsweredCallIsIgnoredNotHeldAgainstTheNextCallWithThatID() async throws {
        let dispatcher = try makeDispatcher()
        let page = await TestPage.open(dispatcher)
        #expect(
            await page.send(#"{"id":"r","module":"echo","action":"echo","payload":1}"#)
                == #"{"id":"r","success":true,"data":1}"#)
        // The SDK's cancel raced the answer and lost: it names a call that has ended.
        #expect(await page.send(#"{"id":"r","cancel":true}"#) == nil)
        #expect(
            await page.send(#"{"id":"r","module":"echo","action":"echo","payload":2}"#)
                == #"{"id":"r","success":true,"data":2}"#)
        // So is one for a call that was refused.
        #expect(await page.send(#"{"id":"u","module":"nope","action":"a"}"#)?.contains("unknown_module") == true)
        #expect(await page.send(#"{"id":"u","cancel":true}"#) == nil)
        #expect(
            await page.send(#"{"id":"u","module":"echo","action":"echo","payload":3}"#)
                == #"{"id":"u","success":true,"data":3}"#)
    }

    @Test func earlyCancelsAreBoundedPerPage() async throws {
        let dispatcher = try makeDispatcher()
        let page = await TestPage.open(dispatcher)
        for index in 0..<(BridgeDispatcher.maxEarlyCancels + 10) {
            #expect(await page.send(#"{"id":"gone\#(index)","cancel":true}"#) == nil)
        }
        // The oldest remembered cancels are forgotten first.
        #expect(
            await page.send(#"{"id":"gone0","module":"echo","action":"echo","payload":1}"#)
                == #"{"id":"gone0","success":true,"data":1}"#)
        #expect(
            await page.send(#"{"id":"gone\#(BridgeDispatcher.maxEarlyCancels + 9)","module":"echo","action":"echo"}"#)?
                .contains(#""code":"cancelled""#) == true)
    }
}
