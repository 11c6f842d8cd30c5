/// A blob's SHA-256 as four words, read from its 64 lowercase hexadecimal digits without allocating.
struct BlobKey: Hashable, Sendable {
    private let first: UInt64
    private let second: UInt64
    private let third: UInt64
    private let fourth: UInt64

    /// Parses 64 lowercase hexadecimal digits; `nil` for anything else.
    init?(hex bytes: some Collection<UInt8>) {
        guard bytes.count == 64 else { return nil }
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        for (index, byte) in bytes.enumerated() {
            let digit: UInt64
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt64(byte &- UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt64(byte &- UInt8(ascii: "a") &+ 10)
            default: return nil
            }
            switch index >> 4 {
            case 0: words.0 = words.0 << 4 | digit
            case 1: words.1 = words.1 << 4 | digit
            case 2: words.2 = words.2 << 4 | digit
            default: words.3 = words.3 << 4 | digit
            }
        }
        (first, second, third, fourth) = words
    }

    /// The 64 lowercase hexadecimal digits.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(64)
        for word in [first, second, third, fourth] {
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int(word >> UInt64(shift) & 0xF)]) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
