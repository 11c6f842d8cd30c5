import Foundation

extension UUID {
    /// The same text as `uuidString` (upper-case hexadecimal, dashes after the 4th, 6th, 8th and
    /// 10th byte), made without the C library's formatted printing, which `uuidString` goes through
    /// on Linux: every request without a key of its own takes its id's text as its idempotency key.
    var text: String {
        // NB: written straight into the string's storage: no array between, and no array of groups.
        withUnsafeBytes(of: uuid) { bytes in
            String(unsafeUninitializedCapacity: 36) { out in
                let digits: StaticString = "0123456789ABCDEF"
                var at = 0
                for index in 0..<16 {
                    if index == 4 || index == 6 || index == 8 || index == 10 {
                        out[at] = UInt8(ascii: "-")
                        at += 1
                    }
                    let byte = bytes[index]
                    out[at] = digits.utf8Start[Int(byte >> 4)]
                    out[at + 1] = digits.utf8Start[Int(byte & 0x0F)]
                    at += 2
                }
                return at
            }
        }
    }
}
