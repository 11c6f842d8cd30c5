import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import PWAKitServer
import Testing

@Suite("Hostile input")
struct HostileInputTests {
    static let jsonEndpoints = ["/v1/auth/register", "/v1/auth/login", "/v1/auth/refresh"]

    @Test("malformed JSON and wrong types get 400 naming the field", arguments: Transport.allCases, StorageEngine.available)
    func malformed(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            for path in Self.jsonEndpoints {
                for body in ["", "{", "nul", "[]", "\"text\"", "42", "{\"email\": }", "\u{FEFF}{}"] {
                    let response = try await client.send(.post, path, body: body)
                    #expect(response.status == .badRequest, "\(path) \(body)")
                    #expect(response.json.errorCode == "invalid_request")
                }
            }
            let nested = try await client.send(.post, "/v1/auth/login", body: #"{"email": {"$gt": ""}, "password": "x"}"#)
            #expect(nested.json.errorField == "email")
            let nullValue = try await client.send(.post, "/v1/auth/login", body: #"{"email": null, "password": "x"}"#)
            #expect(nullValue.json.errorField == "email")
            let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            #expect(try await client.send(.post, "/v1/auth/login", body: deep).status == .badRequest)
        }
    }

    @Test("oversized bodies get 413 before they are read", arguments: Transport.allCases, StorageEngine.available)
    func oversized(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let big = "{\"email\":\"" + String(repeating: "a", count: 100_000) + "\",\"password\":\"x\"}"
            for path in Self.jsonEndpoints {
                let response = try await client.send(.post, path, body: big)
                #expect(response.status == .contentTooLarge, "\(path)")
                #expect(response.json.errorCode == "payload_too_large")
            }
        }
    }

    @Test("SQL metacharacters in every string field are data, never code", arguments: Transport.allCases, StorageEngine.available)
    func sqlMetacharacters(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let nasty = "x'); DROP TABLE users; -- \" ; SELECT * FROM apps WHERE '1'='1"
            let email = "o'brien+\"quote\"-\(uniqueSuffix())@example.com"
            let registered = try await client.send(
                .post, "/v1/auth/register", json: ["email": email, "password": nasty, "displayName": nasty])
            #expect(registered.status == .accepted)
            let login = try await client.send(.post, "/v1/auth/login", json: ["email": email, "password": nasty])
            #expect(login.status == .ok)
            #expect(login.json["user"]?["displayName"]?.string == nasty)
            let injection = try await client.send(
                .post, "/v1/auth/login", json: ["email": "' OR '1'='1", "password": "' OR '1'='1"])
            #expect(injection.json.errorCode == "invalid_credentials")
            let app = try await client.send(
                .post, "/v1/apps",
                json: [
                    "id": "sql-\(uniqueSuffix())", "name": nasty, "description": nasty, "icon": nasty, "permissions": [nasty],
                ], token: admin)
            #expect(app.status == .created)
            #expect(app.json["description"]?.string == nasty)
            let refresh = try await client.send(.post, "/v1/auth/refresh", json: ["refreshToken": nasty])
            #expect(refresh.json.errorCode == "invalid_refresh_token")
            let path = try await client.send(.get, "/v1/apps/x'%20OR%20'1'='1", token: admin)
            #expect(path.status == .badRequest)
            // Everything is still there.
            #expect(try await client.send(.get, "/v1/me", token: admin).status == .ok)
            #expect(try await client.send(.get, "/v1/apps", token: admin).json["apps"]?.count ?? 0 >= 1)
        }
    }

    @Test("unknown routes and methods get the uniform error body", arguments: Transport.allCases, StorageEngine.available)
    func unknownRoutes(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let missing = try await client.send(.get, "/v1/nothing-here")
            #expect(missing.status == .notFound)
            #expect(missing.json.errorCode == "not_found")
            #expect(missing.headers[.contentType] == "application/json")
            let health = try await client.send(.get, "/v1/health")
            #expect(health.json["status"]?.string == "ok")
        }
    }
}
