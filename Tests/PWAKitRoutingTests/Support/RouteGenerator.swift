import Foundation
import PWAKitRetry
import PWAKitRouting

/// Random routes from a seed, with parameter text chosen to break naive encoders.
struct RouteGenerator {
    var random: SeededRandom

    init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    /// Pieces that matter to URLs and to Unicode, mixed with plain letters.
    static let pieces: [String] = [
        "/", "?", "#", "%", "%2F", "%25", "%zz", " ", "&", "=", "+", ";", ":", "@", "!", "$", "'", "(", ")", "*", ",",
        "[", "]", "\\", "\"", "<", ">", "^", "`", "{", "|", "}", "~", "-", "_", ".", "..", "é", "e\u{301}", "日本",
        "🙂", "👩‍👩‍👧", "\u{200B}", "ﬀ", "a", "b", "z", "0", "9", "ab", "item", "A",
    ]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

    mutating func bool() -> Bool { random.chance(0.5) }

    /// Text of 0–`maximum` pieces; never a control character.
    mutating func text(maximum: Int = 8) -> String {
        (0..<int(0...maximum)).map { _ in Self.pieces[int(0...Self.pieces.count - 1)] }.joined()
    }

    /// Text that can be one path segment: not empty, `.` or `..`.
    mutating func segmentText() -> String {
        while true {
            let candidate = text()
            if !candidate.isEmpty, candidate != ".", candidate != ".." { return candidate }
        }
    }

    /// A `/`-separated path whose segments are never `.` or `..` (empty ones allowed).
    mutating func path() -> String {
        (0..<int(0...5)).map { _ in
            var segment = text(maximum: 4).replacingOccurrences(of: "/", with: "")
            if segment == "." || segment == ".." { segment += "x" }
            return segment
        }.joined(separator: "/")
    }

    /// Query value text, line breaks included.
    mutating func queryValue() -> String {
        text() + (random.chance(0.1) ? "\n\t\r" : "")
    }

    mutating func queryItems(excluding reserved: Set<String> = []) -> [URLQueryItem] {
        (0..<int(0...4)).compactMap { _ in
            let name = text(maximum: 3)
            let value: String? = random.chance(0.2) ? nil : queryValue()
            guard !reserved.contains(name), !(name.isEmpty && value == nil) else { return nil }
            return URLQueryItem(name: name, value: value)
        }
    }

    mutating func appId() -> String {
        let first = Array("abcdefghijklmnopqrstuvwxyz0123456789")
        let rest = Array("abcdefghijklmnopqrstuvwxyz0123456789._-")
        var id = String(first[int(0...first.count - 1)])
        for _ in 0..<int(0...20) { id.append(rest[int(0...rest.count - 1)]) }
        return id
    }

    mutating func appRoute() -> AppRoute {
        switch int(0...6) {
        case 0: .home
        case 1: .settings
        case 2: .signIn
        case 3: .notification(id: segmentText())
        default: .miniApp(appId: appId(), path: path(), query: queryItems())
        }
    }

    mutating func shopRoute() -> ShopRoute {
        switch int(0...7) {
        case 0: return .home
        case 1: return .cart
        case 2: return .item(id: int(Int.min...Int.max), tab: bool() ? nil : queryValue())
        case 3:
            let sort = bool() ? nil : ShopRoute.Sort.allCases[int(0...2)]
            return .search(query: queryValue(), page: int(-5...1000), sort: sort)
        case 4:
            return .order(UUID(uuid: randomUUIDBytes()), confirmed: bool())
        case 5:
            let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            let code = "\(letters[int(0...25)])\(letters[int(0...25)])\(int(0...9))\(int(0...9))\(int(0...9))\(int(0...9))"
            return .files(owner: code, path: path())
        case 6: return .compare(int(-1000...1000), int(0...Int.max), with: queryValue())
        default: return .share(text: segmentText(), extra: queryItems())
        }
    }

    private mutating func randomUUIDBytes() -> uuid_t {
        let high = random.next()
        let low = random.next()
        func byte(_ word: UInt64, _ index: Int) -> UInt8 { UInt8(truncatingIfNeeded: word >> (8 * index)) }
        return (
            byte(high, 0), byte(high, 1), byte(high, 2), byte(high, 3), byte(high, 4), byte(high, 5), byte(high, 6),
            byte(high, 7), byte(low, 0), byte(low, 1), byte(low, 2), byte(low, 3), byte(low, 4), byte(low, 5),
            byte(low, 6), byte(low, 7)
        )
    }
}
