/// The character-level rules for identifiers and paths that appear in manifests.
public enum ManifestRules {
    /// The largest single file a release may contain (1 GiB).
    public static let maximumFileSize = 1 << 30

    /// Checks a mini-app id: 1–64 characters of `a-z 0-9 . _ -`, starting with a letter or digit.
    public static func checkAppId(_ value: String, field: String) throws {
        guard isIdentifier(value, maximumLength: 64, extra: [UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-")]) else {
            throw BundleError(
                .invalidField, "must be 1-64 characters of a-z, 0-9, '.', '_' or '-', starting with a letter or digit",
                field: field)
        }
    }

    /// Checks a channel name: 1–32 characters of `a-z 0-9 _ -`, starting with a letter or digit.
    public static func checkChannel(_ value: String, field: String) throws {
        guard isIdentifier(value, maximumLength: 32, extra: [UInt8(ascii: "_"), UInt8(ascii: "-")]) else {
            throw BundleError(
                .invalidField, "must be 1-32 characters of a-z, 0-9, '_' or '-', starting with a letter or digit", field: field)
        }
    }

    /// Checks a bundle path: relative, `/`-separated, no empty, `.` or `..` segments, no backslash or control characters.
    public static func checkPath(_ value: String, field: String) throws {
        guard !value.isEmpty, value.utf8.count <= 512 else {
            throw BundleError(.invalidField, "must be 1-512 bytes long", field: field)
        }
        guard !value.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }) else {
            throw BundleError(.invalidField, "must not contain control characters or backslashes", field: field)
        }
        for segment in value.split(separator: "/", omittingEmptySubsequences: false) {
            guard !segment.isEmpty, segment != ".", segment != ".." else {
                throw BundleError(.invalidField, "must be relative with no empty, '.' or '..' segments", field: field)
            }
        }
    }

    /// Whether a string is exactly 64 lowercase hexadecimal digits.
    public static func isSHA256Hex(_ value: String) -> Bool {
        value.utf8.count == 64 && value.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }

    /// Whether a string is a plausible media type: `type/subtype`, printable ASCII, at most 255 bytes.
    public static func isContentType(_ value: String) -> Bool {
        guard !value.isEmpty, value.utf8.count <= 255, value.contains("/") else { return false }
        return value.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
    }

    private static func isIdentifier(_ value: String, maximumLength: Int, extra: Set<UInt8>) -> Bool {
        let bytes = Array(value.utf8)
        guard let first = bytes.first, bytes.count <= maximumLength, isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || extra.contains($0) }
    }

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A)
    }
}
