import PWAKitRetry
import Testing

@testable import WatchLink

/// The eight-bytes-at-a-time CRC-32 equals the standard one, so logs written before it still check.
@Suite struct CRC32Tests {
    /// The textbook byte-at-a-time CRC-32, computed without tables.
    static func reference(_ bytes: [UInt8], after running: UInt32 = 0xFFFF_FFFF) -> UInt32 {
        var crc = running
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return crc
    }

    @Test func theStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([UInt8]()) == 0)
    }

    @Test func everyLengthAndAlignmentMatchesTheByteAtATimeChecksum() {
        var random = SeededRandom(seed: 0x5EED)
        let bytes = (0..<300).map { _ in UInt8.random(in: 0...255, using: &random) }
        for start in 0..<9 {
            for end in start...bytes.count where (end - start) < 40 || end % 7 == 0 {
                let slice = bytes[start..<end]
                #expect(CRC32.checksum(slice) == Self.reference(Array(slice)) ^ 0xFFFF_FFFF)
            }
        }
        // Continued checksums, as a salted log frame's, equal one over the concatenation.
        let seed = CRC32.checksum(bytes[0..<13], finishing: false)
        #expect(seed == Self.reference(Array(bytes[0..<13])))
        #expect(CRC32.checksum(bytes[13...], after: seed) == CRC32.checksum(bytes))
        // A collection without contiguous storage takes the same path's answer.
        #expect(CRC32.checksum(bytes.lazy.map { $0 }) == CRC32.checksum(bytes))
    }

    @Test func aLogFramesBytesAreThoseOnDisk() {
        // Length 3 big-endian, then the CRC-32 of the length and the body, big-endian (zlib's
        // crc32 of 00 00 00 03 7B 78 7D is 0x1E2F095E), then the body.
        var out: [UInt8] = []
        LogFrame.append(Array("{x}".utf8), to: &out)
        #expect(out == [0, 0, 0, 3, 0x1E, 0x2F, 0x09, 0x5E, 0x7B, 0x78, 0x7D])
    }
}
