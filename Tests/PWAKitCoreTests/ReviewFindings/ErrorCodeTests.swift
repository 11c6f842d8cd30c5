import Testing

@testable import PWAKitCore

/// Every bridge-level code the dispatcher sends is a declared ``BridgeError/Code`` member, so
/// hosts and modules can match it without spelling the wire string.
@Suite struct ErrorCodeTests {
    @Test func theInFlightLimitAnswersADeclaredCode() async throws {
        let page = await TestPage.open(try makeDispatcher(limits: BridgeLimits(maxInFlightPerPage: 0)))
        guard
            case .response(let response)? = await page.dispatcher.handle(
                #"{"id":"1","module":"echo","action":"echo"}"#, from: page.id)
        else {
            Issue.record("expected a response")
            return
        }
        #expect(response.error?.code == .tooManyCalls)
        #expect(BridgeError.Code.tooManyCalls.rawValue == "too_many_calls")
    }
}
