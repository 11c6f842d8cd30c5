/// The path part of an `app://<appId>/…` URI, decoded and checked to stay inside a bundle.
///
/// Refuses, before touching the file system: `..` and `.` segments (also percent-encoded),
/// backslashes, NUL and other control characters, invalid percent escapes and invalid UTF-8.
/// Symlinks that lead out of the root are refused later, by ``LocalBundleServer``.
struct BundlePath: Hashable, Sendable {
    /// The decoded segments, none empty, none `.` or `..`.
    var segments: [String]
    /// Whether the path ended in `/` (a directory's index is meant).
    var isDirectory: Bool

    /// Why a path was refused.
    struct Refusal: Error, Hashable {
        var reason: String
    }

    /// The longest path accepted, in bytes of the raw URI path.
    static let maxLength = 4096

    /// Parses the raw (percent-encoded) path of a URI, without its query or fragment.
    static func parse(rawPath: Substring) throws(Refusal) -> BundlePath {
        guard rawPath.utf8.count <= maxLength else { throw Refusal(reason: "the path is too long") }
        var segments: [String] = []
        let rawSegments = rawPath.split(separator: "/", omittingEmptySubsequences: false)
        for raw in rawSegments {
            if raw.isEmpty {
                // Leading slash, trailing slash, or `//`: no segment.
                continue
            }
            let decoded = try decode(raw)
            if decoded == "." || decoded == ".." { throw Refusal(reason: "the path leaves the bundle") }
            if decoded.contains("/") || decoded.contains("\\") {
                throw Refusal(reason: "the path has an encoded separator")
            }
            if decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
                throw Refusal(reason: "the path has a control character")
            }
            segments.append(decoded)
        }
        return BundlePath(segments: segments, isDirectory: rawPath.isEmpty || rawPath.hasSuffix("/"))
    }

    /// Decodes `%XX` escapes; the result must be valid UTF-8.
    static func decode(_ raw: Substring) throws(Refusal) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.utf8.count)
        var iterator = raw.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw Refusal(reason: "the path has an invalid percent escape")
            }
            bytes.append(high << 4 | low)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Refusal(reason: "the path is not valid UTF-8")
        }
        return text
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Whether the last segment has no extension (a client-side route of a single-page app).
    var looksLikeRoute: Bool {
        guard let last = segments.last else { return true }
        return !last.contains(".")
    }
}
