/// The part of a push notification's payload that says where a tap goes: a top-level `route`
/// string holding one of the app's URLs (`{"aps": {…}, "route": "myapp://notification/n-42"}`).
public struct PushRoutePayload: Codable, Sendable, Hashable {
    /// The URL, in the app's scheme or a universal link.
    public var route: String

    /// A payload naming `route`.
    public init(route: String) {
        self.route = route
    }
}
