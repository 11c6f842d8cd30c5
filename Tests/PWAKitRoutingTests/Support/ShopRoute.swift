import Foundation
import PWAKitRouting

/// An app's own route type, declared with the routing API the way an app would.
enum ShopRoute: Hashable, Sendable {
    enum Sort: String, RouteParameter, CaseIterable {
        case newest, price, rating
    }

    case home
    case item(id: Int, tab: String?)
    case search(query: String, page: Int, sort: Sort?)
    case order(UUID, confirmed: Bool)
    case files(owner: String, path: String)
    case compare(Int, Int, with: String)
    case share(text: String, extra: [URLQueryItem])
    case cart

    /// A store code: two uppercase letters and four digits, written as it is.
    static let storeCode = ParameterCodec<String>(
        name: "store code",
        parse: { isStoreCode($0) ? $0 : nil },
        print: { isStoreCode($0) ? $0 : nil })

    static func isStoreCode(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 6 && bytes[..<2].allSatisfy { $0 >= 0x41 && $0 <= 0x5A }
            && bytes[2...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// A prefix several routes share.
    static let itemPrefix = RoutePattern {
        "items"
        Parameter(Int.self)
    }

    static let routes = Routes<ShopRoute> {
        RouteCase(ShopRoute.home) {}
        RouteCase(ShopRoute.cart) { "account/cart" }
        RouteCase(ShopRoute.item) {
            itemPrefix
            Query("tab", String?.self)
        } extract: {
            if case .item(let id, let tab) = $0 { (id, tab) } else { nil }
        }
        RouteCase(ShopRoute.compare) {
            itemPrefix
            "compare"
            Parameter(Int.self)
            Query("with", String.self)
        } extract: {
            if case .compare(let first, let second, let with) = $0 { (first, second, with) } else { nil }
        }
        RouteCase(ShopRoute.search) {
            "search"
            Query("q", String.self)
            Query("page", Int.self, default: 1)
            Query("sort", Sort?.self)
        } extract: {
            if case .search(let query, let page, let sort) = $0 { (query, page, sort) } else { nil }
        }
        RouteCase(ShopRoute.order) {
            "orders"
            Parameter(UUID.self)
            Query("confirmed", Bool.self)
        } extract: {
            if case .order(let id, let confirmed) = $0 { (id, confirmed) } else { nil }
        }
        RouteCase(ShopRoute.files) {
            "stores"
            Parameter(storeCode)
            "files"
            RestOfPath()
        } extract: {
            if case .files(let owner, let path) = $0 { (owner, path) } else { nil }
        }
        RouteCase(ShopRoute.share) {
            "share"
            Parameter(String.self)
            RemainingQuery()
        } extract: {
            if case .share(let text, let extra) = $0 { (text, extra) } else { nil }
        }
    }

    static func router(pathPrefix: String = "") throws -> Router<ShopRoute> {
        Router(
            routes,
            configuration: try LinkConfiguration(
                scheme: "shop", universalLinkHosts: ["shop.example.com", "www.shop.example.com"], pathPrefix: pathPrefix))
    }
}
