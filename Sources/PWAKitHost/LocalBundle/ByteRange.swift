/// A single HTTP byte range (`Range: bytes=…`) resolved against a file size.
struct ByteRange: Hashable, Sendable {
    /// The first byte's offset.
    var lower: Int
    /// The last byte's offset (inclusive).
    var upper: Int

    var count: Int { upper - lower + 1 }

    /// What a `Range` header asks of a file of `size` bytes.
    enum Outcome: Hashable {
        /// Serve the whole file (no header, a header we do not serve, or several ranges).
        case whole
        /// Serve this part with 206.
        case partial(ByteRange)
        /// No byte of the file is in the range: 416.
        case unsatisfiable
    }

    /// Parses `header` (RFC 9110 §14.1.2) for a file of `size` bytes. Only one range is served;
    /// a header that is malformed or names several ranges is ignored, as the RFC allows.
    static func parse(_ header: String?, size: Int) -> Outcome {
        guard let header else { return .whole }
        let trimmed = header.trimmingASCIISpaces()
        guard trimmed.lowercased().hasPrefix("bytes=") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).trimmingASCIISpaces()
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return .whole }
        let first = spec[..<dash].trimmingASCIISpaces()
        let last = spec[spec.index(after: dash)...].trimmingASCIISpaces()
        func number(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(text)
        }
        if first.isEmpty {
            // Suffix range: the last N bytes.
            guard let suffix = number(last) else { return .whole }
            guard suffix > 0, size > 0 else { return .unsatisfiable }
            return .partial(ByteRange(lower: max(0, size - suffix), upper: size - 1))
        }
        guard let lower = number(first) else { return .whole }
        let upper: Int
        if last.isEmpty {
            upper = size - 1
        } else {
            guard let value = number(last), value >= lower else { return .whole }
            upper = min(value, size - 1)
        }
        guard lower < size else { return .unsatisfiable }
        return .partial(ByteRange(lower: lower, upper: upper))
    }
}

extension StringProtocol {
    func trimmingASCIISpaces() -> Substring {
        let text = Substring(self)
        guard let start = text.firstIndex(where: { $0 != " " && $0 != "\t" }),
            let end = text.lastIndex(where: { $0 != " " && $0 != "\t" })
        else { return text[text.endIndex...] }
        return text[start...end]
    }
}
