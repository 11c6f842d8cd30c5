import Foundation
import PWAKitEncoding

extension UUID {
    /// The same text as `uuidString` (upper-case hexadecimal, dashes after the 4th, 6th, 8th and
    /// 10th byte), made without the C library's formatted printing, which `uuidString` goes through
    /// on Linux: every request without a key of its own takes its id's text as its idempotency key.
    var text: String {
        withUnsafeBytes(of: uuid) { bytes in
            var out: [UInt8] = []
            out.reserveCapacity(36)
            for group in [0..<4, 4..<6, 6..<8, 8..<10, 10..<16] {
                if !out.isEmpty { out.append(UInt8(ascii: "-")) }
                Hex.append(bytes[group], uppercase: true, to: &out)
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
