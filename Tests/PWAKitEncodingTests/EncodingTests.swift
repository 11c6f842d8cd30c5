import Foundation
import PWAKitEncoding
import Testing

@Suite("Hex and base64url")
struct EncodingTests {
    @Test("hex round-trips every byte, accepts either case, refuses odd lengths and non-digits")
    func hex() {
        let bytes = (0...255).map(UInt8.init)
        let text = Hex.encode(bytes)
        #expect(text.count == 512)
        #expect(text.hasPrefix("000102") && text.hasSuffix("fdfeff"))
        #expect(Hex.decode(text) == bytes)
        #expect(Hex.decode("ABcd") == [0xAB, 0xCD])
        #expect(Hex.decode("") == [])
        for hostile in ["a", "abc", "zz", "0g", " 0", "é0", "+1"] { #expect(Hex.decode(hostile) == nil, "\(hostile)") }
        var upper: [UInt8] = Array("x".utf8)
        Hex.append(bytes, uppercase: true, to: &upper)
        #expect(String(decoding: upper, as: UTF8.self) == "x" + text.uppercased())
        #expect(Hex.decode(String(decoding: upper.dropFirst(), as: UTF8.self)) == bytes)
    }

    @Test("base64url matches Foundation's base64 with the URL alphabet and no padding, for every length")
    func base64urlMatchesFoundation() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
            #expect(Base64URL.encode(bytes) == expected)
            #expect(Base64URL.decode(expected) == bytes)
        }
    }

    @Test("base64url decoding refuses padding, the standard alphabet, whitespace, impossible lengths and re-spelled tails")
    func base64urlIsStrict() {
        #expect(Base64URL.decode("AQ") == [1])
        for hostile in ["AQ==", "A+8", "A/8", "AQ\n", " AQ", "A", "AAAAA", "AR", "AQF"] {
            #expect(Base64URL.decode(hostile) == nil, "\(hostile)")
        }
        // "AR" and "AQF" carry non-zero unused bits: they would otherwise decode to the same bytes
        // as "AQ" and "AQE", re-spelling a signature without changing it.
        #expect(Base64URL.decode("AQE") == [1, 1])
    }
}
