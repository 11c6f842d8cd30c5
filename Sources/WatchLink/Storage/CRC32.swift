/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), as zlib and PNG compute it: the
/// checksum that lets a log tell a record torn by a crash from a whole one.
///
/// Computed eight bytes at a time ("slicing-by-8": eight tables, the k-th giving a byte's
/// checksum followed by k zero bytes), for the hundreds of bytes of a log record: the
/// byte-at-a-time loop was 3% of a durable run's busy samples in `perf`.
enum CRC32 {
    /// The eight tables, one after another.
    private static let tables: [UInt32] = {
        var tables = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
            tables[index] = value
        }
        for slice in 1..<8 {
            for index in 0..<256 {
                let previous = tables[(slice - 1) * 256 + index]
                tables[slice * 256 + index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
        }
        return tables
    }()

    /// The checksum of `bytes`.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt32 {
        checksum(bytes, after: 0xFFFF_FFFF)
    }

    /// The checksum of what `running` covered followed by `bytes` (`running` from a call with
    /// `finishing: false`, or `0xFFFFFFFF` to start); unfinished when `finishing` is false.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes, after running: UInt32, finishing: Bool = true) -> UInt32 {
        let crc =
            bytes.withContiguousStorageIfAvailable { update(running, $0) }
            ?? Array(bytes).withUnsafeBufferPointer { update(running, $0) }
        return finishing ? crc ^ 0xFFFF_FFFF : crc
    }

    /// The unfinished checksum of `bytes`, to continue with ``checksum(_:after:finishing:)``.
    static func checksum<Bytes: Collection<UInt8>>(_ bytes: Bytes, finishing: Bool) -> UInt32 {
        checksum(bytes, after: 0xFFFF_FFFF, finishing: finishing)
    }

    private static func update(_ running: UInt32, _ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        tables.withUnsafeBufferPointer { table in
            var crc = running
            var index = 0
            let count = bytes.count
            while count - index >= 8 {
                let low =
                    crc
                    ^ (UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
                        | UInt32(bytes[index + 3]) << 24)
                let high =
                    UInt32(bytes[index + 4]) | UInt32(bytes[index + 5]) << 8 | UInt32(bytes[index + 6]) << 16
                    | UInt32(bytes[index + 7]) << 24
                crc =
                    table[7 * 256 + Int(low & 0xFF)] ^ table[6 * 256 + Int(low >> 8 & 0xFF)]
                    ^ table[5 * 256 + Int(low >> 16 & 0xFF)] ^ table[4 * 256 + Int(low >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int(high >> 8 & 0xFF)]
                    ^ table[256 + Int(high >> 16 & 0xFF)] ^ table[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = table[Int((crc ^ UInt32(bytes[index])) & 0xFF)] ^ (crc >> 8)
                index += 1
            }
            return crc
        }
    }
}
