import Foundation
import PWAKitRouting
import Testing

@Suite("Push taps: a payload's route string turned into a route")
struct PushPayloadTests {
    static let router = AppRoute.router(
        configuration: try! LinkConfiguration(scheme: "myapp", universalLinkHosts: ["example.com"]))

    static func failure(_ json: String) -> RoutingError? {
        do {
            _ = try router.route(fromPushPayload: Data(json.utf8))
            return nil
        } catch { return error }
    }

    @Test("the route field holds the app's URL in either form; other fields are ignored")
    func reads() throws {
        let apns = #"{"aps": {"alert": {"title": "New note"}, "sound": "default"}, "route": "myapp://notification/n-42"}"#
        #expect(try Self.router.route(fromPushPayload: Data(apns.utf8)) == .notification(id: "n-42"))
        let universal = #"{"route": "https://example.com/app/notes/n/7?from=push"}"#
        #expect(
            try Self.router.route(fromPushPayload: Data(universal.utf8))
                == .miniApp(appId: "notes", path: "n/7", query: [URLQueryItem(name: "from", value: "push")]))
        let encoded = try JSONEncoder().encode(PushRoutePayload(route: "myapp://settings"))
        #expect(try Self.router.route(fromPushPayload: encoded) == .settings)
    }

    @Test(
        "every refusal is invalid_push_payload naming the field",
        arguments: [
            ("", nil),
            ("not json", nil),
            ("[]", nil),
            (#"{"aps": {}}"#, "route"),
            (#"{"route": null}"#, "route"),
            (#"{"route": 42}"#, "route"),
            (#"{"route": ["myapp://settings"]}"#, "route"),
            (#"{"route": "myapp://nowhere"}"#, "route"),
            (#"{"route": "javascript:alert(1)"}"#, "route"),
            (#"{"route": ""}"#, "route"),
        ] as [(String, String?)])
    func refused(json: String, field: String?) {
        let error = Self.failure(json)
        #expect(error?.code == .invalidPushPayload, "\(json)")
        #expect(error?.field == field, "\(json): \(String(describing: error))")
    }

    @Test("a URL that is not a route keeps its own error underneath")
    func underlying() throws {
        let error = try #require(Self.failure(#"{"route": "myapp://app/Notes"}"#))
        let cause = try #require(error.underlying as? RoutingError)
        #expect(cause.code == .invalidParameter)
        #expect(cause.field == "path[1]")
        #expect(error.message.hasPrefix("route: 'Notes' is not a valid mini-app id"))
    }

    @Test("a payload over 16 KiB is refused before it is decoded")
    func size() {
        let padding = String(repeating: "x", count: 16384)
        let error = Self.failure(#"{"route": "myapp://settings", "pad": "\#(padding)"}"#)
        #expect(error?.code == .invalidPushPayload)
        #expect(error?.message.contains("the limit is 16384") == true)
    }
}
