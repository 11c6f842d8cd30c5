import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitServer
import Testing

/// The hand-written `Server/openapi.yaml` and the server agree on every route.
@Suite("OpenAPI document")
struct OpenAPIRouteTests {
    static let specURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Server/openapi.yaml")

    /// `(METHOD, path)` pairs under `paths:`: two-space-indented path keys, four-space-indented method keys.
    static func specRoutes() throws -> Set<String> {
        let text = try String(contentsOf: specURL, encoding: .utf8)
        var routes = Set<String>()
        var inPaths = false
        var currentPath: String?
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options"]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !line.hasPrefix(" ") && !line.isEmpty {
                inPaths = line == "paths:"
                continue
            }
            guard inPaths else { continue }
            if line.hasPrefix("  /"), line.hasSuffix(":") {
                currentPath = String(line.dropFirst(2).dropLast())
            } else if line.hasPrefix("    "), !line.hasPrefix("     "), let path = currentPath {
                let key = line.dropFirst(4).split(separator: ":").first.map(String.init) ?? ""
                if methods.contains(key) { routes.insert("\(key.uppercased()) \(path)") }
            }
        }
        return routes
    }

    @Test("every server route is in the spec and every spec route is served")
    func sameRoutes() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        let served = Set(harness.server.routes.map(\.description))
        let documented = try Self.specRoutes()
        #expect(documented.count >= 20)
        #expect(served.subtracting(documented).isEmpty, "not in openapi.yaml: \(served.subtracting(documented).sorted())")
        #expect(documented.subtracting(served).isEmpty, "not served: \(documented.subtracting(served).sorted())")
        try await harness.server.storage.close()
    }

    @Test(
        "every spec route answers with its own handler, never 'route not found', 405 or 5xx",
        arguments: StorageEngine.available)
    func specRoutesAnswer(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        let routes = try Self.specRoutes().sorted()
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "spec-app-\(uniqueSuffix())"
            try await client.createApp(appId, admin: admin)
            let samples = [
                "{appId}": appId, "{sha256}": String(repeating: "a", count: 64),
                "{bundleHash}": String(repeating: "b", count: 64),
                "{channel}": "stable", "{version}": "1.0.0",
            ]
            for route in routes {
                let parts = route.split(separator: " ", maxSplits: 1).map(String.init)
                var path = parts[1]
                for (placeholder, value) in samples { path = path.replacingOccurrences(of: placeholder, with: value) }
                let method = HTTPRequest.Method(parts[0])!
                let body: String? = method == .get || method == .head ? nil : "{}"
                let response = try await client.send(method, path, body: body, token: admin)
                #expect(response.status.code < 500, "\(route) -> \(response.status)")
                #expect(response.status != .methodNotAllowed, "\(route)")
                #expect(!response.text.contains("route not found"), "\(route) is not routed")
            }
        }
    }
}
