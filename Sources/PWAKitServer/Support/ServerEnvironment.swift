public import Foundation
import HTTPTypes
import PWAKitEncoding

/// The effects the server depends on, injected so tests control time and randomness.
public struct ServerEnvironment: Sendable {
    /// The current time.
    public var now: @Sendable () -> Date
    /// `count` cryptographically random bytes.
    public var randomBytes: @Sendable (Int) -> [UInt8]

    /// Creates an environment from its effects.
    public init(now: @escaping @Sendable () -> Date, randomBytes: @escaping @Sendable (Int) -> [UInt8]) {
        self.now = now
        self.randomBytes = randomBytes
    }

    /// The real clock and the system's secure random generator.
    public static let live = ServerEnvironment(
        now: { Date() },
        randomBytes: { count in
            var generator = SystemRandomNumberGenerator()
            return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        }
    )

    /// A random URL-safe token of `byteCount` random bytes (base64url, no padding) that does not
    /// start with `-`, which a command line would read as an option: a person types ids and codes
    /// into `pwakit` (`pwakit identity approve <id>`), and one draw in 64 starts with it.
    func token(byteCount: Int = 32) -> String {
        // NB: drawn again (dropping under 0.03 bits of the token's entropy); bounded, so that
        // injected bytes that always start with `-` still end, with the first character replaced.
        var token = Base64URL.encode(randomBytes(byteCount))
        for _ in 0..<16 where token.hasPrefix("-") { token = Base64URL.encode(randomBytes(byteCount)) }
        return token.hasPrefix("-") ? "A" + token.dropFirst() : token
    }

    /// A random opaque identifier.
    func identifier() -> String { token(byteCount: 16) }
}
