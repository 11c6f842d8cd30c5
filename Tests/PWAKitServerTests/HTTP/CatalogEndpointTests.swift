import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitBundles
import PWAKitServer
import PWAKitTesting
import Testing

@Suite("Catalog endpoints")
struct CatalogEndpointTests {
    @Test("admins create apps, keys and credentials; users list and read", arguments: Transport.allCases, StorageEngine.available)
    func catalog(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let user = try await client.register()
            let appId = "games.\(uniqueSuffix())"
            let created = try await client.send(
                .post, "/v1/apps",
                json: [
                    "id": appId, "name": "Quiz", "description": "Pub quiz", "icon": "icon.png",
                    "permissions": ["haptics", "share"], "channels": ["stable"],
                ],
                token: admin)
            #expect(created.status == .created)
            #expect(created.json["entryPath"]?.string == "index.html")

            let list = try await client.send(.get, "/v1/apps", token: user.access)
            #expect(list.status == .ok)
            let listed = (0..<(list.json["apps"]?.count ?? 0)).compactMap { list.json["apps"]?[$0]?["id"]?.string }
            #expect(listed.contains(appId))
            let detail = try await client.send(.get, "/v1/apps/\(appId)", token: user.access)
            #expect(detail.json["permissions"]?[1]?.string == "share")
            #expect(try await client.send(.get, "/v1/apps/\(appId)").status == .unauthorized)
            let missing = try await client.send(.get, "/v1/apps/no-such-app", token: user.access)
            #expect(missing.status == .notFound)
            #expect(missing.json.errorCode == "not_found")
            let badId = try await client.send(.get, "/v1/apps/BAD%20ID", token: user.access)
            #expect(badId.status == .badRequest)
            #expect(badId.json.errorField == "appId")

            let key = SigningKey.generate()
            let added = try await client.send(
                .post, "/v1/apps/\(appId)/keys", json: ["publicKey": key.verifyingKey.base64], token: admin)
            #expect(added.status == .created)
            #expect(added.json["keyId"]?.string == key.keyId)
            let again = try await client.send(
                .post, "/v1/apps/\(appId)/keys", json: ["publicKey": key.verifyingKey.base64], token: admin)
            #expect(again.json.errorCode == "conflict")
            let badKey = try await client.send(.post, "/v1/apps/\(appId)/keys", json: ["publicKey": "AAAA"], token: admin)
            #expect(badKey.json.errorField == "publicKey")
            let keys = try await client.send(.get, "/v1/apps/\(appId)/keys", token: admin)
            #expect(keys.json["keys"]?.count == 1)

            let credential = try await client.send(.post, "/v1/apps/\(appId)/credentials", token: admin)
            #expect(credential.status == .created)
            #expect((credential.json["secret"]?.string?.count ?? 0) >= 40)

            // Ordinary users may not change the catalog.
            for (method, path) in [
                (HTTPRequest.Method.post, "/v1/apps"), (.post, "/v1/apps/\(appId)/keys"),
                (.post, "/v1/apps/\(appId)/credentials"), (.get, "/v1/apps/\(appId)/keys"),
            ] {
                let response = try await client.send(
                    method, path, json: ["id": "x", "name": "x", "publicKey": key.verifyingKey.base64], token: user.access)
                #expect(response.status == .forbidden, "\(method) \(path)")
                #expect(response.json.errorCode == "forbidden")
            }
        }
    }

    @Test(
        "the app list follows apps another replica adds, and ends with the session", arguments: Transport.allCases,
        StorageEngine.available)
    func listFollowsOtherReplicas(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let user = try await client.register()
            func listed() async throws -> [String] {
                let list = try await client.send(.get, "/v1/apps", token: user.access)
                #expect(list.status == .ok)
                return (0..<(list.json["apps"]?.count ?? 0)).compactMap { list.json["apps"]?[$0]?["id"]?.string }
            }
            // NB: other suites add apps to a shared PostgreSQL database meanwhile, so only this app is counted on.
            let appId = "replica.\(uniqueSuffix())"
            #expect(try await !listed().contains(appId))
            #expect(try await !listed().contains(appId))
            // Written straight to the shared database, as another replica would: this server's kept list must not hide it.
            let app = AppRecord(
                id: appId, name: "Elsewhere", description: "", icon: "", entryPath: "index.html", permissions: [],
                channels: ["stable"], createdAt: harness.clock.date)
            #expect(try await harness.server.storage.insertApp(app))
            #expect(try await listed().contains(appId))

            let logout = try await client.send(.post, "/v1/auth/logout", json: ["refreshToken": user.refresh], token: user.access)
            #expect(logout.status == .noContent)
            let ended = try await client.send(.get, "/v1/apps", token: user.access)
            #expect(ended.status == .unauthorized)
        }
    }

    @Test("app creation names the field at fault", arguments: Transport.allCases, StorageEngine.available)
    func appValidation(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let cases: [([String: Any], String)] = [
                (["id": "Bad Id", "name": "x"], "id"),
                (["id": "ok-\(uniqueSuffix())", "name": ""], "name"),
                (["id": "ok-\(uniqueSuffix())", "name": "x", "channels": []], "channels"),
                (["id": "ok-\(uniqueSuffix())", "name": "x", "channels": ["Stable!"]], "channels[0]"),
                (["id": "ok-\(uniqueSuffix())", "name": "x", "channels": ["a", "a"]], "channels"),
                (["id": "ok-\(uniqueSuffix())", "name": "x", "entryPath": "../etc/passwd"], "entryPath"),
                (["id": "ok-\(uniqueSuffix())", "name": "x", "permissions": [1]], "permissions[0]"),
                (["id": "ok-\(uniqueSuffix())", "name": 5], "name"),
            ]
            for (body, field) in cases {
                let response = try await client.send(.post, "/v1/apps", json: body, token: admin)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.json.errorField == field, "\(body) -> \(response.text)")
            }
            let appId = "dup-\(uniqueSuffix())"
            _ = try await client.send(.post, "/v1/apps", json: ["id": appId, "name": "x"], token: admin)
            let duplicate = try await client.send(.post, "/v1/apps", json: ["id": appId, "name": "x"], token: admin)
            #expect(duplicate.status == .conflict)
        }
    }
}
