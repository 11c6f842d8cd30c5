/// Event ids: version-7 UUIDs (RFC 9562), whose first 48 bits are the time in milliseconds, so ids
/// made later sort later.
public enum EventID {
    /// A version-7 UUID for `milliseconds` since 1970, its other 74 bits drawn from `random`, in
    /// lowercase canonical form.
    public static func make(milliseconds: Int64, using random: inout some RandomNumberGenerator) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        let time = UInt64(max(0, milliseconds)) & 0xFFFF_FFFF_FFFF
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (8 * UInt64(5 - index))) }
        let high = random.next()
        let low = random.next()
        for index in 6..<8 { bytes[index] = UInt8(truncatingIfNeeded: high >> (8 * UInt64(index))) }
        for index in 8..<16 { bytes[index] = UInt8(truncatingIfNeeded: low >> (8 * UInt64(index - 8))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { byte in String(byte, radix: 16).count == 1 ? "0" + String(byte, radix: 16) : String(byte, radix: 16)
        }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// A version-7 UUID for `milliseconds` since 1970 from the system's random source.
    public static func make(milliseconds: Int64) -> String {
        var random = SystemRandomNumberGenerator()
        return make(milliseconds: milliseconds, using: &random)
    }
}
