import Foundation

extension AppRoute {
    /// The URL forms of every platform route, declared once for parsing and printing.
    public static let routes = Routes<AppRoute> {
        RouteCase(AppRoute.home) {}
        RouteCase(AppRoute.miniApp) {
            "app"
            Parameter(MiniAppIdentifier.codec)
            RestOfPath()
            RemainingQuery()
        } extract: {
            if case .miniApp(let appId, let path, let query) = $0 { (appId, path, query) } else { nil }
        }
        RouteCase(AppRoute.settings) { "settings" }
        RouteCase(AppRoute.signIn) { "sign-in" }
        RouteCase(AppRoute.notification) {
            "notification"
            Parameter(String.self)
        } extract: {
            if case .notification(let id) = $0 { id } else { nil }
        }
    }

    /// A router of the platform's routes under an app's link configuration.
    public static func router(configuration: LinkConfiguration) -> Router<AppRoute> {
        Router(routes, configuration: configuration)
    }
}
