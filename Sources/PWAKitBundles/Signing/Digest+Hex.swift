public import Crypto
public import Foundation
import PWAKitEncoding

extension SHA256 {
    /// The lowercase hexadecimal SHA-256 of some bytes.
    public static func hex(of data: some DataProtocol) -> String {
        SHA256.hash(data: data).hexString
    }
}

extension SHA256Digest {
    /// The digest as 64 lowercase hexadecimal digits.
    public var hexString: String { Hex.encode(self) }
}
