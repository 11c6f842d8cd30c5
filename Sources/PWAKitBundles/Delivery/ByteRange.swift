import Foundation

/// A parsed `Range: bytes=…` header against a resource of known size (RFC 9110 §14).
///
/// Shared by everything that serves bundle files: the server's blob delivery and a host's
/// local `app://` bundles.
public enum ByteRange: Equatable, Sendable {
    /// No usable range: serve the whole resource (absent, malformed, multi-range or non-byte units).
    case whole
    /// One satisfiable range, clamped to the resource.
    case partial(ClosedRange<Int>)
    /// A syntactically valid range that selects nothing: 416.
    case unsatisfiable

    /// Parses `header` for a resource of `size` bytes; only one range is ever served.
    public static func parse(_ header: String?, size: Int) -> ByteRange {
        guard let header else { return .whole }
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.count <= 200, trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst(6).trimmingCharacters(in: .whitespaces)
        // NB: multiple ranges would need multipart/byteranges; answering the whole blob is allowed.
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingCharacters(in: .whitespaces)
        let last = spec[spec.index(after: dash)...].trimmingCharacters(in: .whitespaces)
        guard first.allSatisfy(\.isASCIIDigit), last.allSatisfy(\.isASCIIDigit), first.count <= 18, last.count <= 18 else {
            return .whole
        }
        if first.isEmpty {
            guard let suffix = Int(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .partial(max(0, size - suffix)...(size - 1))
        }
        guard let start = Int(first) else { return .whole }
        let end: Int
        if last.isEmpty {
            end = size - 1
        } else {
            guard let parsed = Int(last), parsed >= start else { return .whole }
            end = min(parsed, size - 1)
        }
        guard start < size else { return .unsatisfiable }
        return .partial(start...end)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
