import Testing

@testable import PWAKitCore

/// Call ids are compared as JavaScript compares them: by their exact text, never by
/// Unicode canonical equivalence (which Swift's `String` equality applies).
@Suite struct CallIDIdentityTests {
    @Test func idsThatDifferOnlyInNormalizationAreDistinctCalls() async throws {
        let gate = Gate()
        let dispatcher = try makeDispatcher(modules: [SlowModule(gate: gate)])
        let page = await TestPage.open(dispatcher)
        // "é" precomposed (U+00E9) and decomposed (e + U+0301): two different ids to a page.
        async let composed = page.send(#"{"id":"\u00e9","module":"slow","action":"stubborn"}"#)
        #expect(await eventually { await dispatcher.inFlightCount == 1 })
        async let decomposed = page.send(#"{"id":"e\u0301","module":"slow","action":"stubborn"}"#)
        #expect(await eventually { await dispatcher.inFlightCount == 2 })

        // Cancelling the decomposed id cancels that call only, and the answer carries its exact id.
        #expect(await page.send(#"{"id":"e\u0301","cancel":true}"#) == nil)
        let cancelled = await decomposed
        #expect(
            cancelled.map { Array($0.utf8) }
                == Array(
                    "{\"id\":\"e\u{301}\",\"success\":false,\"error\":\"the page cancelled the call\",\"code\":\"cancelled\"}"
                        .utf8))
        #expect(await dispatcher.inFlightCount == 1)

        gate.open()
        let finished = await composed
        #expect(finished.map { Array($0.utf8) } == Array("{\"id\":\"\u{e9}\",\"success\":true,\"data\":\"late\"}".utf8))
    }
}
