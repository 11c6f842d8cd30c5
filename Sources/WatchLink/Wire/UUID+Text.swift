import Foundation

extension UUID {
    /// The hexadecimal digits, upper case.
    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    /// The same text as `uuidString` (upper-case hexadecimal, dashes after the 4th, 6th, 8th and
    /// 10th byte), made without the C library's formatted printing, which `uuidString` goes through
    /// on Linux: every request without a key of its own takes its id's text as its idempotency key.
    var text: String {
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                var i = 0
                for (n, byte) in bytes.enumerated() {
                    if n == 4 || n == 6 || n == 8 || n == 10 {
                        out[i] = UInt8(ascii: "-")
                        i += 1
                    }
                    out[i] = Self.hexDigits[Int(byte >> 4)]
                    out[i + 1] = Self.hexDigits[Int(byte & 0x0F)]
                    i += 2
                }
                return i
            }
        }
    }
}
