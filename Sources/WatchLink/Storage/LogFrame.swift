/// The frames of a crash-safe log: `length (4 bytes, big-endian) | CRC-32 of the length and the
/// body (4) | body`. The checksum covers the length, so a damaged length is seen as damage rather
/// than read as a record that runs past the end (and taken for a torn tail).
///
/// Reading stops trusting a frame at the first one that is not whole and valid, and looks for the
/// next valid frame after it: a crash leaves damage only after the last sync (a torn append, a
/// tail of zeros from a size that reached the disk before the data), so when a valid frame follows
/// the damage, the damage is skipped and everything after it kept; when none does, the rest of the
/// file is a torn tail.
///
/// A log may *salt* its checksums with bytes of its own (`seed`, the unfinished CRC-32 of the salt):
/// frames then check out only in that file, so bytes an app wrote into a record (which might hold
/// a whole frame) can never pass for a record of their own.
enum LogFrame {
    /// Length and checksum.
    static let headerSize = 8
    /// The seed of an unsalted frame's checksum.
    static let unsalted: UInt32 = 0xFFFF_FFFF

    /// The seed for frames salted with `salt`.
    static func seed(salt: [UInt8]) -> UInt32 { CRC32.checksum(salt, finishing: false) }

    /// Appends `body` as one frame, its checksum seeded with `seed`.
    static func append(_ body: [UInt8], to out: inout [UInt8], seed: UInt32 = unsalted) {
        body.withUnsafeBytes { bytes in append(to: &out, seed: seed) { $0.bytes(bytes) } }
    }

    /// Appends one frame whose body `write` writes in place, after room left for the length and
    /// checksum that are then filled in: the body has no array of its own, and is not copied.
    static func append(to out: inout [UInt8], seed: UInt32 = unsalted, body write: (inout ByteWriter) -> Void) {
        let start = out.count
        // NB: the array moves into the writer and back; with no other holder, neither move copies it.
        var writer = ByteWriter(appendingTo: out)
        out = []
        writer.uint64(0)
        write(&writer)
        out = writer.take()
        let bodyStart = start + headerSize
        let length = UInt32(out.count - bodyStart).bigEndian
        let lengthSum = withUnsafeBytes(of: length) { CRC32.checksum($0, after: seed, finishing: false) }
        out.withUnsafeMutableBytes { bytes in
            let sum = CRC32.checksum(UnsafeRawBufferPointer(rebasing: bytes[bodyStart...]), after: lengthSum).bigEndian
            bytes.storeBytes(of: length, toByteOffset: start, as: UInt32.self)
            bytes.storeBytes(of: sum, toByteOffset: start + 4, as: UInt32.self)
        }
    }

    /// What a scan found.
    struct Scan: Equatable {
        /// Bytes checksummed while looking for a valid frame after damage (bounded: see ``scan``).
        var searched = 0
        /// The bodies of the valid frames, in order.
        var bodies: [Range<Int>] = []
        /// The byte ranges that held no valid frame (damage skipped, then a torn tail if any).
        var damaged: [Range<Int>] = []
    }

    /// Reads the frames of `bytes` from `start`, each body at most `maximumLength` bytes. With
    /// `zerosEndTheLog`, where no frame is found and only zeros follow, the log has ended there:
    /// those are a file grown ahead of its log, not damage.
    ///
    /// Looking for the next valid frame after damage checksums, at each offset, the body its
    /// length claims; bytes crafted so that every offset claims a long body (an app's, in a record
    /// a crash tore) would make that quadratic. So that search checksums at most `searchBudget`
    /// bytes in all (by default 1 MiB plus 16 times the image); past it, the rest of the image is
    /// damage. A crash damages only what follows the last sync, so what is given up was never synced.
    static func scan(
        _ bytes: [UInt8], from start: Int, maximumLength: Int, seed: UInt32 = unsalted, zerosEndTheLog: Bool = false,
        searchBudget: Int? = nil
    ) -> Scan {
        var scan = Scan()
        let budget = searchBudget ?? (1 << 20) + 16 * bytes.count
        var offset = start
        while offset < bytes.count {
            if let body = frame(in: bytes, at: offset, maximumLength: maximumLength, seed: seed) {
                scan.bodies.append(body)
                offset = body.upperBound
                continue
            }
            if zerosEndTheLog, bytes[offset...].allSatisfy({ $0 == 0 }) { break }
            var next = offset + 1
            while next + headerSize <= bytes.count {
                if scan.searched > budget {
                    next = bytes.count
                    break
                }
                // NB: what the check below checksums: the length field and the body it claims.
                scan.searched += claimedLength(in: bytes, at: next, maximumLength: maximumLength).map { 4 + $0 } ?? 0
                if frame(in: bytes, at: next, maximumLength: maximumLength, seed: seed) != nil { break }
                next += 1
            }
            let end = next + headerSize <= bytes.count ? next : bytes.count
            scan.damaged.append(offset..<end)
            offset = end
        }
        return scan
    }

    /// A fresh random salt of 8 bytes, for a new file.
    static func newSalt() -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// The body length the frame at `offset` claims, when that claim can hold (at most
    /// `maximumLength`, within `bytes`); nil otherwise.
    static func claimedLength(in bytes: [UInt8], at offset: Int, maximumLength: Int) -> Int? {
        guard offset + headerSize <= bytes.count else { return nil }
        let length =
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
        guard length <= maximumLength, offset + headerSize + length <= bytes.count else { return nil }
        return length
    }

    /// The body of the valid frame at `offset`, or nil.
    static func frame(in bytes: [UInt8], at offset: Int, maximumLength: Int, seed: UInt32 = unsalted) -> Range<Int>? {
        guard let length = claimedLength(in: bytes, at: offset, maximumLength: maximumLength) else { return nil }
        let body = offset + headerSize
        let stored = bytes[(offset + 4)..<body].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let sum = CRC32.checksum(
            bytes[body..<(body + length)], after: CRC32.checksum(bytes[offset..<(offset + 4)], after: seed, finishing: false))
        return sum == stored ? body..<(body + length) : nil
    }
}
