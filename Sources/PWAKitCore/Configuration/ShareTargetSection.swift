/// The `shareTarget` section: where the app takes what people share to it, in the shape of the web
/// app manifest's `share_target` (GET only). A shared link, title and text open the `action` page on
/// the start page's origin with the named query parameters (`pwakit run <config> --share-url …`).
public struct ShareTargetSection: Codable, Sendable, Equatable {
    /// The page that takes a share: a path on the start page's origin (`/share`), optionally with a query.
    public var action: String
    /// `GET`, the only method the host supports (the default).
    public var method: String?
    /// `application/x-www-form-urlencoded`, the only encoding of a GET share (the default).
    public var enctype: String?
    /// Which query parameter carries each shared value.
    public var params: ShareTargetParams

    /// Creates the section.
    public init(action: String, method: String? = nil, enctype: String? = nil, params: ShareTargetParams) {
        self.action = action
        self.method = method
        self.enctype = enctype
        self.params = params
    }

    /// The form encoding a GET share uses.
    public static let formEncoding = "application/x-www-form-urlencoded"

    /// Why `action` cannot be a share target's page, or nil: a path from the origin's root (`/…`, not
    /// `//…`), at most 512 bytes, printable ASCII without a fragment.
    public static func actionProblem(_ action: String) -> String? {
        guard action.hasPrefix("/"), !action.hasPrefix("//") else {
            return "must be a path on the start page's origin, starting with one \"/\" (e.g. \"/share\")"
        }
        guard action.utf8.count <= 512 else { return "must be at most 512 bytes" }
        guard action.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            return "must be printable ASCII without spaces (percent-encode anything else)"
        }
        guard !action.contains("#") else { return "must not have a fragment (#…)" }
        return nil
    }

    /// Whether `name` can be a query parameter's name: 1…64 bytes of letters, digits, `-`, `_`, `.`.
    public static func isParameterName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 64
            && name.utf8.allSatisfy {
                ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || "-_.".utf8.contains($0)
            }
    }

    /// The page for a share on the origin of `startURL`; nil when that URL has no origin.
    public func pageURL(startURL: String, title: String?, text: String?, url: String?) -> String? {
        guard let start = URLParts(startURL), let host = start.host else { return nil }
        let origin = "\(start.scheme)://\(host)" + (start.port.map { ":\($0)" } ?? "")
        return pageURL(origin: origin, title: title, text: text, url: url)
    }

    /// The page for a share: `origin` (`https://example.com`, `app://notes`) + ``action`` + the
    /// values under their parameters, form-encoded (a value left out, or not named by ``params``, is not sent).
    public func pageURL(origin: String, title: String?, text: String?, url: String?) -> String {
        var pairs: [String] = []
        for (name, value) in [(params.title, title), (params.text, text), (params.url, url)] {
            guard let name, let value else { continue }
            pairs.append("\(name)=\(Self.formEncoded(value))")
        }
        guard !pairs.isEmpty else { return origin + action }
        return origin + action + (action.contains("?") ? "&" : "?") + pairs.joined(separator: "&")
    }

    /// `application/x-www-form-urlencoded` as the URL Standard writes it: a space is `+`, and every
    /// byte but letters, digits and `*-._` is percent-encoded.
    public static func formEncoded(_ value: String) -> String {
        var out = ""
        for byte in value.utf8 {
            switch byte {
            case 0x20: out += "+"
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2A, 0x2D, 0x2E, 0x5F: out.unicodeScalars.append(UnicodeScalar(byte))
            default:
                let hex = Array("0123456789ABCDEF")
                out += "%" + String(hex[Int(byte >> 4)]) + String(hex[Int(byte & 0x0F)])
            }
        }
        return out
    }
}

/// The `shareTarget.params` object: the query parameter that carries each shared value.
public struct ShareTargetParams: Codable, Sendable, Equatable {
    /// The shared title's parameter.
    public var title: String?
    /// The shared text's parameter.
    public var text: String?
    /// The shared URL's parameter.
    public var url: String?

    /// Creates the params.
    public init(title: String? = nil, text: String? = nil, url: String? = nil) {
        self.title = title
        self.text = text
        self.url = url
    }
}
