import Foundation
import Observation
import PWAKitRouting
import Synchronization
import Testing

@MainActor
@Suite("Navigator: the stack, links and push taps")
struct NavigatorTests {
    static func configuration() throws -> LinkConfiguration {
        try LinkConfiguration(scheme: "myapp", universalLinkHosts: ["example.com"], pathPrefix: "/p")
    }

    @Test("navigate, pop, pop to root and replace")
    func operations() throws {
        let navigator = Navigator(configuration: try Self.configuration())
        #expect(navigator.path.isEmpty)
        #expect(navigator.current == nil)
        navigator.pop()
        #expect(navigator.path.isEmpty)
        navigator.navigate(to: .settings)
        navigator.navigate(to: .signIn)
        navigator.navigate(to: .signIn)
        #expect(navigator.path == [.settings, .signIn, .signIn])
        navigator.pop()
        #expect(navigator.path == [.settings, .signIn])
        navigator.popToRoot()
        #expect(navigator.path.isEmpty)
        navigator.navigate(to: .settings)
        navigator.replace(with: .notification(id: "n"))
        #expect(navigator.path == [.notification(id: "n")])
        navigator.replace(with: .home)
        #expect(navigator.path.isEmpty)
        navigator.navigate(to: .settings)
        navigator.navigate(to: .home)
        #expect(navigator.path.isEmpty)
    }

    @Test("a link of the app is pushed; any other URL answers false and changes nothing")
    func links() throws {
        let navigator = Navigator(configuration: try Self.configuration(), path: [.settings])
        #expect(navigator.handle(url: URL(string: "myapp://app/notes/n/1")!))
        #expect(navigator.path == [.settings, .miniApp(appId: "notes", path: "n/1", query: [])])
        // The same link again does not push it twice.
        #expect(navigator.handle(url: URL(string: "https://example.com/p/app/notes/n/1")!))
        #expect(navigator.path.count == 2)
        for foreign in [
            "otherapp://settings", "https://example.com/settings", "https://evil.example/p/settings", "myapp://nowhere",
            "myapp://app/Bad",
        ] {
            #expect(!navigator.handle(url: URL(string: foreign)!), "\(foreign)")
        }
        #expect(navigator.path == [.settings, .miniApp(appId: "notes", path: "n/1", query: [])])
        // A link home pops to the root.
        #expect(navigator.handle(url: URL(string: "myapp://")!))
        #expect(navigator.path.isEmpty)
    }

    @Test("a push tap is handled like a link")
    func pushPayloads() throws {
        let navigator = Navigator(configuration: try Self.configuration())
        #expect(navigator.handle(pushPayload: Data(#"{"route": "myapp://notification/n-9"}"#.utf8)))
        #expect(navigator.path == [.notification(id: "n-9")])
        #expect(!navigator.handle(pushPayload: Data(#"{"title": "no route"}"#.utf8)))
        #expect(!navigator.handle(pushPayload: Data("garbage".utf8)))
        #expect(navigator.path == [.notification(id: "n-9")])
    }

    @Test("changes to the path are observable")
    func observable() throws {
        let navigator = Navigator(configuration: try Self.configuration())
        let changes = Changes()
        withObservationTracking {
            _ = navigator.path
        } onChange: {
            changes.count.withLock { $0 += 1 }
        }
        navigator.navigate(to: .settings)
        #expect(changes.count.withLock { $0 } == 1)
        // A URL that is not ours leaves the path, and its observers, alone.
        withObservationTracking {
            _ = navigator.path
        } onChange: {
            changes.count.withLock { $0 += 1 }
        }
        #expect(!navigator.handle(url: URL(string: "otherapp://x")!))
        navigator.pop()
        #expect(changes.count.withLock { $0 } == 2)
    }

    @Test("generic over the route type: an app's own routes, without a root")
    func appDefined() throws {
        let navigator = Navigator(router: try ShopRoute.router())
        #expect(navigator.handle(url: URL(string: "shop://items/3?tab=reviews")!))
        #expect(navigator.handle(url: URL(string: "shop://")!))
        #expect(navigator.path == [.item(id: 3, tab: "reviews"), .home])
        #expect(navigator.root == nil)
    }
}

/// A counter the observation callbacks write to.
final class Changes: Sendable {
    let count = Mutex(0)
}
