/// The rules for the `<appId>` of an `app://<appId>/…` URL, the origin of an app served
/// from a local bundle.
enum AppIdentifier {
    /// Why `text` is not a valid app id, or nil when it is: 1–63 characters of lowercase
    /// letters, digits, `-` and `.`, in dot-separated parts that are not empty and do not
    /// start or end with `-`.
    static func problem(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.unicodeScalars.count > 63 { return "is longer than 63 characters" }
        if let bad = text.unicodeScalars.first(where: {
            !(("a"..."z").contains($0) || $0.isASCIIDigit || $0 == "-" || $0 == ".")
        }) {
            return "contains '\(bad)'; use lowercase letters, digits, '-' and '.'"
        }
        for part in text.split(separator: ".", omittingEmptySubsequences: false) {
            if part.isEmpty { return "has an empty part between dots" }
            if part.hasPrefix("-") || part.hasSuffix("-") { return "has a part that starts or ends with '-'" }
        }
        return nil
    }
}
