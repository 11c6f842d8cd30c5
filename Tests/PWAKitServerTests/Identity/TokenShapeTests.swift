import Foundation
import Testing

@testable import PWAKitServer

/// The server's ids and codes are typed into `pwakit` as arguments, so none starts with `-`.
@Suite("Random tokens and ids")
struct TokenShapeTests {
    @Test("no token or id starts with -, and each keeps its length")
    func noLeadingDash() {
        let environment = ServerEnvironment.live
        // NB: one draw in 64 started with `-` before; 4,000 draws would all miss it once in 10^27.
        for _ in 0..<2_000 {
            let token = environment.token()
            let id = environment.identifier()
            #expect(!token.hasPrefix("-") && token.count == 43, "\(token)")
            #expect(!id.hasPrefix("-") && id.count == 22, "\(id)")
        }
    }

    @Test("bytes that always encode to a leading - still give a token, of the same length")
    func injectedBytesEnd() {
        // NB: 0xF8 is 111110 in its top six bits: `-` in base64url.
        let environment = ServerEnvironment(now: { Date() }, randomBytes: { Array(repeating: 0xF8, count: $0) })
        let token = environment.token(byteCount: 16)
        #expect(token.count == 22)
        #expect(token.hasPrefix("A"))
    }
}
