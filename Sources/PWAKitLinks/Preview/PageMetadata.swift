public import Foundation

/// What a link preview shows, read from a fetched page: oEmbed (non-rich) first, then Open Graph,
/// Twitter cards, JSON-LD, and last the page's `<title>` and description — and where the page says
/// its canonical and AMP versions and its oEmbed endpoint are.
public struct PageMetadata: Hashable, Sendable {
    /// The title, whitespace collapsed, at most 300 characters.
    public var title: String?
    /// The description, at most 1,000 characters.
    public var description: String?
    /// The site's name.
    public var siteName: String?
    /// The thumbnail's absolute `http(s)` URL.
    public var imageURL: String?
    /// `<link rel="canonical">`, absolute.
    public var canonicalURL: String?
    /// `<link rel="amphtml">`, absolute.
    public var ampURL: String?
    /// The JSON oEmbed endpoint the page names (`<link rel="alternate" type="application/json+oembed">`), absolute.
    public var oEmbedURL: String?

    /// The largest JSON-LD block read.
    static let maximumJSONLD = 256 * 1024

    /// Reads `html`, the page at `page`; relative URLs resolve against it.
    public init(html: String, page: CanonicalURL) {
        var meta: [String: String] = [:]
        var titleText: String?
        var jsonLD: [Any] = []
        var links: [(rel: Set<String>, type: String, href: String)] = []
        var tokenizer = HTMLTokenizer(Array(html.utf8))
        var scriptIsJSONLD = false
        while let token = tokenizer.next() {
            switch token {
            case .start(name: "meta", let attributes):
                // NB: Open Graph writes `property`, Twitter and HTML `name`; the first of each key wins.
                let key = (attributes["property"] ?? attributes["name"] ?? attributes["itemprop"])?.lowercased()
                if let key, let content = attributes["content"], meta[key] == nil { meta[key] = content }
            case .start(name: "link", let attributes):
                if let href = attributes["href"] {
                    let rel = Set((attributes["rel"] ?? "").lowercased().split(whereSeparator: \.isWhitespace).map(String.init))
                    links.append((rel, (attributes["type"] ?? "").lowercased(), href))
                }
            case .start(name: "script", let attributes):
                scriptIsJSONLD = attributes["type"]?.lowercased() == "application/ld+json"
            case .text(element: "script", let text):
                if scriptIsJSONLD, text.utf8.count <= Self.maximumJSONLD,
                    let parsed = try? JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
                {
                    jsonLD.append(parsed)
                }
                scriptIsJSONLD = false
            case .text(element: "title", let text):
                if titleText == nil { titleText = text }
            default: break
            }
        }
        let schema = Self.schemaObject(jsonLD)
        title = Self.clean(
            meta["og:title"] ?? meta["twitter:title"] ?? Self.string(schema?["headline"]) ?? Self.string(schema?["name"])
                ?? titleText, limit: 300)
        description = Self.clean(
            meta["og:description"] ?? meta["twitter:description"] ?? Self.string(schema?["description"])
                ?? meta["description"], limit: 1000)
        siteName = Self.clean(
            meta["og:site_name"] ?? meta["application-name"]
                ?? Self.string((schema?["publisher"] as? [String: Any])?["name"]), limit: 200)
        let image =
            meta["og:image:secure_url"] ?? meta["og:image"] ?? meta["og:image:url"] ?? meta["twitter:image"]
            ?? meta["twitter:image:src"] ?? Self.image(schema?["image"])
        imageURL = image.flatMap { Self.resolve($0, against: page) }
        canonicalURL = links.first { $0.rel.contains("canonical") }.flatMap { Self.resolve($0.href, against: page) }
        ampURL = links.first { $0.rel.contains("amphtml") }.flatMap { Self.resolve($0.href, against: page) }
        oEmbedURL = links.first { $0.rel.contains("alternate") && $0.type == "application/json+oembed" }
            .flatMap { Self.resolve($0.href, against: page) }
    }

    /// Puts a non-rich oEmbed answer first (its title, provider and thumbnail); a `rich` one, which
    /// needs a script to show, is ignored. Whether it was applied.
    @discardableResult
    public mutating func apply(oEmbed data: Data, page: CanonicalURL) -> Bool {
        guard data.count <= Self.maximumJSONLD,
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let type = object["type"] as? String, ["photo", "video", "link"].contains(type)
        else { return false }
        if let title = Self.clean(Self.string(object["title"]), limit: 300) { self.title = title }
        if let provider = Self.clean(Self.string(object["provider_name"]), limit: 200) { siteName = provider }
        let thumbnail = Self.string(object["thumbnail_url"]) ?? (type == "photo" ? Self.string(object["url"]) : nil)
        if let resolved = thumbnail.flatMap({ Self.resolve($0, against: page) }) { imageURL = resolved }
        return true
    }

    // MARK: - Helpers

    /// The first JSON-LD object with a title-like field, looking inside arrays and `@graph`.
    static func schemaObject(_ blocks: [Any]) -> [String: Any]? {
        var queue = blocks
        var visited = 0
        while !queue.isEmpty, visited < 200 {
            let next = queue.removeFirst()
            visited += 1
            if let array = next as? [Any] {
                queue += array
            } else if let object = next as? [String: Any] {
                if object["headline"] != nil || object["name"] != nil || object["description"] != nil { return object }
                if let graph = object["@graph"] { queue.append(graph) }
            }
        }
        return nil
    }

    static func string(_ value: Any?) -> String? { value as? String }

    /// A JSON-LD `image`: a string, an `ImageObject` with `url`, or a list of either.
    static func image(_ value: Any?) -> String? {
        if let text = value as? String { return text }
        if let object = value as? [String: Any] { return object["url"] as? String }
        if let list = value as? [Any] { return list.lazy.compactMap { image($0) }.first }
        return nil
    }

    /// Whitespace collapsed and trimmed, cut to `limit` characters; nil when nothing is left.
    static func clean(_ text: String?, limit: Int) -> String? {
        guard let text else { return nil }
        let collapsed = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        guard !collapsed.isEmpty else { return nil }
        return collapsed.count > limit ? String(collapsed.prefix(limit - 1)) + "…" : collapsed
    }

    /// `reference` resolved against `base`, as a canonical `http(s)` URL (tracking kept); nil for
    /// other schemes (`data:`, `javascript:`) and what cannot be read.
    static func resolve(_ reference: String, against base: CanonicalURL) -> String? {
        (try? base.resolving(reference, rules: .none))?.description
    }
}
