public import Foundation

/// Which query parameters only track where a link came from, and are removed before a URL is
/// stored: a global list and per-site lists, each a regular expression matched against a whole
/// parameter name, case-insensitively, in the style of ClearURLs. ``standard`` is the list kept in
/// the repository (`Rules/tracking-parameters.json`).
public struct TrackingRules: Sendable {
    /// A site's own rules.
    struct Provider: Sendable {
        var name: String
        var hosts: [String]
        var remove: [NameRule]
        var pathSuffix: PathRule?
    }

    /// One compiled name pattern.
    struct NameRule: @unchecked Sendable {
        // NB: a compiled Regex is immutable once built; it is only read from here on.
        let regex: Regex<AnyRegexOutput>
        func matches(_ name: String) -> Bool { (try? regex.wholeMatch(in: name)) != nil }
    }

    /// A pattern the end of a path may match.
    struct PathRule: @unchecked Sendable {
        let regex: Regex<AnyRegexOutput>
    }

    let global: [NameRule]
    let providers: [Provider]

    /// The rules in the repository.
    public static let standard: TrackingRules = {
        do {
            return try TrackingRules(json: Data(StandardTrackingRules.text.utf8))
        } catch {
            // NB: a test parses the embedded list; an unreadable one removes nothing rather than stopping the server.
            return TrackingRules(global: [], providers: [])
        }
    }()

    /// No rules: nothing is removed.
    public static let none = TrackingRules(global: [], providers: [])

    init(global: [NameRule], providers: [Provider]) {
        self.global = global
        self.providers = providers
    }

    /// Reads a rule list (the format of `Rules/tracking-parameters.json`); a pattern that is not a
    /// regular expression is ``LinkError/Code/invalidRules`` naming it.
    public init(json: Data) throws(LinkError) {
        struct File: Decodable {
            struct Entry: Decodable {
                var name: String
                var hosts: [String]
                var remove: [String]
                var pathSuffix: String?
            }
            var version: Int
            var global: [String]
            var providers: [Entry]
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: json)
        } catch {
            throw LinkError(.invalidRules, "the rule list is not the expected JSON: \(error)", field: "rules")
        }
        func compile(_ pattern: String, _ field: String) throws(LinkError) -> Regex<AnyRegexOutput> {
            do {
                return try Regex("(?:\(pattern))").ignoresCase()
            } catch {
                throw LinkError(.invalidRules, "'\(pattern)' is not a regular expression: \(error)", field: field)
            }
        }
        var global: [NameRule] = []
        for (index, pattern) in file.global.enumerated() {
            global.append(NameRule(regex: try compile(pattern, "rules.global[\(index)]")))
        }
        var providers: [Provider] = []
        for (index, entry) in file.providers.enumerated() {
            var remove: [NameRule] = []
            for (position, pattern) in entry.remove.enumerated() {
                remove.append(NameRule(regex: try compile(pattern, "rules.providers[\(index)].remove[\(position)]")))
            }
            let suffix = try entry.pathSuffix.map { (pattern: String) throws(LinkError) in
                PathRule(regex: try compile(pattern, "rules.providers[\(index)].pathSuffix"))
            }
            providers.append(
                Provider(name: entry.name, hosts: entry.hosts.map { $0.lowercased() }, remove: remove, pathSuffix: suffix))
        }
        self.init(global: global, providers: providers)
    }

    /// The providers whose hosts cover `host` (equal, or a subdomain).
    func providers(for host: String) -> [Provider] {
        providers.filter { provider in provider.hosts.contains { host == $0 || host.hasSuffix("." + $0) } }
    }

    /// Whether the parameter `name` (decoded) is tracking on `host`.
    func removes(_ name: String, on providers: [Provider]) -> Bool {
        global.contains { $0.matches(name) } || providers.contains { $0.remove.contains { $0.matches(name) } }
    }

    /// `path` without a provider's tracking suffix (`/dp/B01/ref=sr_1_1` → `/dp/B01`).
    func strippingSuffix(_ path: String, on providers: [Provider]) -> String {
        var path = path
        for provider in providers {
            guard let rule = provider.pathSuffix else { continue }
            // NB: only a match that reaches the end of the path counts.
            if let match = try? rule.regex.firstMatch(in: path), match.range.upperBound == path.endIndex,
                match.range.lowerBound > path.startIndex
            {
                path = String(path[..<match.range.lowerBound])
            }
        }
        return path.isEmpty ? "/" : path
    }
}
