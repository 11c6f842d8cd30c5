/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zlib and PNG compute it: the
/// checksum that lets a log tell a record torn by a crash from a whole one.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The checksum of `bytes`.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        checksum(bytes, after: 0xFFFF_FFFF)
    }

    /// The checksum of what `running` covered followed by `bytes` (`running` from a call with
    /// `finishing: false`, or `0xFFFFFFFF` to start); unfinished when `finishing` is false.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes, after running: UInt32, finishing: Bool = true) -> UInt32 {
        var crc = running
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return finishing ? crc ^ 0xFFFF_FFFF : crc
    }

    /// The unfinished checksum of `bytes`, to continue with ``checksum(_:after:finishing:)``.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes, finishing: Bool) -> UInt32 {
        checksum(bytes, after: 0xFFFF_FFFF, finishing: finishing)
    }
}
