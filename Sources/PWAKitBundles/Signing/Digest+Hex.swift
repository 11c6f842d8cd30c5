public import Crypto
public import Foundation

extension SHA256 {
    /// The lowercase hexadecimal SHA-256 of some bytes.
    public static func hex(of data: some DataProtocol) -> String {
        SHA256.hash(data: data).hexString
    }
}

extension SHA256Digest {
    /// The digest as 64 lowercase hexadecimal digits.
    public var hexString: String {
        var text = ""
        text.reserveCapacity(64)
        for byte in self {
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return text
    }

    private static let hexDigits: [Character] = Array("0123456789abcdef")
}
