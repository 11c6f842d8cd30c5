public import Foundation
import HTTPTypes

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

    /// A random URL-safe token of `byteCount` random bytes (base64url, no padding).
    func token(byteCount: Int = 32) -> String { Base64URL.encode(randomBytes(byteCount)) }

    /// A random opaque identifier.
    func identifier() -> String { token(byteCount: 16) }
}

/// Base64url without padding.
enum Base64URL {
    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of unpadded base64url text; `nil` when any character is outside the alphabet.
    static func decode(_ text: some Collection<UInt8>) -> Data? {
        guard text.count % 4 != 1 else { return nil }
        var standard = [UInt8]()
        standard.reserveCapacity(text.count + 3)
        for byte in text {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            default: return nil
            }
        }
        standard.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - standard.count % 4) % 4))
        return Data(base64Encoded: Data(standard))
    }
}
