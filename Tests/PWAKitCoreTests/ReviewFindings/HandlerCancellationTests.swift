import PWAKitTesting
import Testing

@testable import PWAKitCore

/// The dispatcher cancels the handler's task — not only its answer — when a call is
/// cancelled, times out or loses its page, so cooperative modules stop working.
@Suite struct HandlerCancellationTests {
    @Test func cancelTimeoutAndClosePageCancelTheHandlerTask() async throws {
        let clock = ManualClock()
        let gate = Gate()
        let dispatcher = try makeDispatcher(modules: [SlowModule(gate: gate)], clock: clock)
        let page = await TestPage.open(dispatcher)

        async let cancelled = page.send(#"{"id":"c","module":"slow","action":"wait"}"#)
        #expect(await eventually { gate.waiting == 1 })
        _ = await page.send(#"{"id":"c","cancel":true}"#)
        #expect(await cancelled?.contains(#""code":"cancelled""#) == true)
        #expect(await eventually { gate.waiting == 0 })

        async let timedOut = page.send(#"{"id":"t","module":"slow","action":"wait","timeoutMs":10}"#)
        #expect(await eventually { gate.waiting == 1 })
        clock.advance(by: .milliseconds(10))
        #expect(await timedOut?.contains(#""code":"timeout""#) == true)
        #expect(await eventually { gate.waiting == 0 })

        async let dropped = page.send(#"{"id":"p","module":"slow","action":"wait"}"#)
        #expect(await eventually { gate.waiting == 1 })
        await dispatcher.closePage(page.id)
        #expect(await dropped == nil)
        #expect(await eventually { gate.waiting == 0 })
    }
}
