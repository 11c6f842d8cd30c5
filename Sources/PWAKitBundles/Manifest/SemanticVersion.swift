/// A release version `MAJOR.MINOR.PATCH`, each part a decimal number from 0 to 999 999.
public struct SemanticVersion: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// The largest value any part may take.
    public static let maximumPart = 999_999

    /// The major part.
    public let major: Int
    /// The minor part.
    public let minor: Int
    /// The patch part.
    public let patch: Int

    /// Creates a version from its parts; each must be in `0...maximumPart`.
    public init?(major: Int, minor: Int, patch: Int) {
        let range = 0...Self.maximumPart
        guard range.contains(major), range.contains(minor), range.contains(patch) else { return nil }
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `MAJOR.MINOR.PATCH`: ASCII digits only, no leading zeros, no sign, no suffix.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.count <= 6, part.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            guard part == "0" || part.first != "0" else { return nil }
            guard let value = Int(part) else { return nil }
            numbers.append(value)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2])
    }

    /// A single integer that orders versions the same way they compare; fits in 64 bits.
    public var orderingKey: Int64 {
        let base = Int64(Self.maximumPart) + 1
        return (Int64(major) * base + Int64(minor)) * base + Int64(patch)
    }

    /// The canonical text form.
    public var description: String { "\(major).\(minor).\(patch)" }

    /// Orders by major, then minor, then patch.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.orderingKey < rhs.orderingKey }
}
