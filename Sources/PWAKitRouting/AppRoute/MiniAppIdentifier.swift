/// The platform's rule for mini-app ids, restated here so routing needs no crypto: 1–64
/// characters of `a-z 0-9 . _ -`, starting with a letter or digit.
///
/// NB: the same rule as `ManifestRules.checkAppId` in PWAKitBundles; the routing tests check the
/// two agree.
public enum MiniAppIdentifier {
    /// The most characters an id has.
    public static let maximumLength = 64

    /// Whether `text` is a valid mini-app id.
    public static func isValid(_ text: String) -> Bool {
        let bytes = text.utf8
        guard let first = bytes.first, bytes.count <= maximumLength, isLowerAlphanumeric(first) else { return false }
        return bytes.allSatisfy { isLowerAlphanumeric($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }

    /// The codec of an app id path segment: reads and writes valid ids only.
    public static let codec = ParameterCodec<String>(
        name: "mini-app id", parse: { isValid($0) ? $0 : nil }, print: { isValid($0) ? $0 : nil })

    private static func isLowerAlphanumeric(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x61 && byte <= 0x7A)
    }
}
