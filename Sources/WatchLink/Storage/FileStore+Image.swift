import Foundation

/// Reading and writing log images: the header, the frames, and the formats before this one.
extension FileStore {
    /// What a log image holds.
    struct Read {
        /// The records that survived (none when the frames were only checked).
        var records: [DurableRecord] = []
        /// The valid frames.
        var frames = 0
        /// The byte ranges dropped as damage.
        var damaged: [Range<Int>] = []
        /// The salt of a log in this format; `nil` for an empty or earlier one (to be rewritten).
        var salt: [UInt8]?
        /// Where the last frame ends.
        var end = 0
    }

    /// Decodes a log image: its records and the ranges dropped as damage.
    static func scanLog(_ bytes: [UInt8]) throws(WatchLinkError) -> ([DurableRecord], [Range<Int>]) {
        let read = try readImage(bytes)
        return (read.records, read.damaged)
    }

    /// Decodes a log image of any format (with `decoding` false, checks a version-3 log's frames
    /// without decoding them).
    static func readImage(_ bytes: [UInt8], decoding: Bool = true) throws(WatchLinkError) -> Read {
        // NB: the offsets at which the magic differs from this format's.
        let magicDamage =
            bytes.count >= magic.count ? (0..<magic.count).filter { bytes[$0] != magic[$0] } : Array(0..<magic.count)
        if bytes.count >= magic.count, magicDamage == [magic.count - 1], bytes[magic.count - 1] > magic[magic.count - 1],
            bytes.count >= headerSize, bytes[magic.count..<(magic.count + 8)] == bytes[(magic.count + 8)..<headerSize]
        {
            throw WatchLinkError(
                .storageFailed, "the log is of a later version (\(bytes[magic.count - 1])) than this build reads",
                details: ["field": "log.version"])
        }
        if bytes.count >= headerSize, magicDamage.count <= 1 {
            let copies = [Array(bytes[magic.count..<(magic.count + 8)]), Array(bytes[(magic.count + 8)..<headerSize])]
            // NB: a magic with one damaged byte is read with the salt when both copies agree: as
            // this format's even with no records, unless that byte is the version and reads 2 (a
            // log of version 2, unless records check out with the salt).
            if magicDamage.isEmpty || copies[0] == copies[1] {
                var read = try readFrames(bytes, from: headerSize, seed: LogFrame.seed(salt: copies[0]), decoding: decoding)
                read.salt = copies[0]
                if copies[1] != copies[0] {
                    // NB: one copy was damaged: the other is the one the records check out with.
                    var other = try readFrames(bytes, from: headerSize, seed: LogFrame.seed(salt: copies[1]), decoding: decoding)
                    other.salt = copies[1]
                    if other.frames > read.frames { read = other }
                    // NB: both copies damaged: the records cannot be checked, so none is dropped
                    // as damage; the file is left as it is (a log that never held one opens).
                    if read.frames == 0, bytes[headerSize...].contains(where: { $0 != 0 }) {
                        throw WatchLinkError(
                            .storageFailed, "the log's salt is damaged in both of its copies; no record checks out with either",
                            details: ["field": "log.salt"])
                    }
                    read.damaged.insert(magic.count..<headerSize, at: 0)
                }
                let versionTwo = magicDamage == [magic.count - 1] && bytes[magic.count - 1] == unsaltedMagic[magic.count - 1]
                if magicDamage.isEmpty || !versionTwo || read.frames > 0 {
                    if !magicDamage.isEmpty { read.damaged.insert(0..<magic.count, at: 0) }
                    return read
                }
            }
        }
        if bytes.starts(with: unsaltedMagic) {
            return try readFrames(bytes, from: unsaltedMagic.count, seed: LogFrame.unsalted, decoding: true)
        }
        if bytes.count < headerSize, magic.starts(with: bytes.prefix(magic.count)) || unsaltedMagic.starts(with: bytes) {
            // NB: empty, or a header a crash cut short: nothing was ever synced after it.
            return Read()
        }
        return Read(records: try decodeLegacyLog(bytes))
    }

    /// The frames of a log image from `start`, checked with `seed`.
    static func readFrames(_ bytes: [UInt8], from start: Int, seed: UInt32, decoding: Bool) throws(WatchLinkError) -> Read {
        let scan = LogFrame.scan(bytes, from: start, maximumLength: maximumRecord, seed: seed, zerosEndTheLog: true)
        var read = Read(frames: scan.bodies.count, damaged: scan.damaged, end: scan.bodies.last?.upperBound ?? start)
        guard decoding else { return read }
        let firstDamage = scan.damaged.first?.lowerBound ?? Int.max
        let decoder = JSONDecoder()
        for body in scan.bodies {
            do {
                read.records.append(try RecordCodec.decode(bytes[body], json: decoder))
            } catch {
                let frame = (body.lowerBound - LogFrame.headerSize)..<body.upperBound
                // NB: a frame found after damage may be bytes of a damaged record's body that happen
                // to check out; one that does not decode is more damage. One before any damage is not.
                if frame.lowerBound > firstDamage {
                    read.damaged.append(frame)
                    continue
                }
                throw WatchLinkError(
                    .storageFailed, "the record at offset \(frame.lowerBound) is whole but cannot be read",
                    details: ["field": "log[\(read.records.count)]"])
            }
        }
        read.damaged.sort { $0.lowerBound < $1.lowerBound }
        return read
    }

    /// The records of a log image (both formats).
    static func decodeLog(_ bytes: [UInt8]) throws(WatchLinkError) -> [DurableRecord] { try scanLog(bytes).0 }

    /// Decodes a log of the format before the header, stopping at a torn tail; a corrupt complete record is an error.
    static func decodeLegacyLog(_ bytes: [UInt8]) throws(WatchLinkError) -> [DurableRecord] {
        var records: [DurableRecord] = []
        var offset = 0
        let decoder = JSONDecoder()
        while offset + 4 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            guard length <= maximumRecord else {
                throw WatchLinkError(
                    .storageFailed, "record length \(length) at offset \(offset) is implausible",
                    details: ["field": "log[\(records.count)]"])
            }
            guard offset + 4 + length <= bytes.count else { break }
            do {
                records.append(try RecordCodec.decode(bytes[(offset + 4)..<(offset + 4 + length)], json: decoder))
            } catch {
                throw WatchLinkError(
                    .storageFailed, "corrupt record at offset \(offset)", details: ["field": "log[\(records.count)]"])
            }
            offset += 4 + length
        }
        return records
    }

    /// The frames of `records` (without the header), checked with `seed`.
    static func frames(_ records: [DurableRecord], seed: UInt32) -> [UInt8] {
        // NB: each record is encoded straight into its frame; room for a usual record each (a
        // request's is about 300 bytes, a mark's under 100) spares most of a group's regrowths. Only
        // for the first 32: a snapshot's many records grow the array as they come, not a guess ahead.
        var out: [UInt8] = []
        out.reserveCapacity(min(records.count, 32) * 320)
        for record in records { LogFrame.append(to: &out, seed: seed) { RecordCodec.encode(record, into: &$0) } }
        return out
    }

    /// A whole log image of `records` salted with `salt`: the header and their frames.
    static func image(_ records: [DurableRecord], salt: [UInt8]) -> [UInt8] {
        header(salt: salt) + frames(records, seed: LogFrame.seed(salt: salt))
    }
}
