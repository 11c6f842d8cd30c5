import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import PWAKitServer

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
            // Nesting inside a field is refused before decoding, naming the limit; brackets inside strings do not count.
            let nestedField =
                #"{"email": "a@example.com", "password": "x", "extra": "# + String(repeating: "[", count: 40)
                + String(repeating: "]", count: 40) + "}"
            let refused = try await client.send(.post, "/v1/auth/login", body: nestedField)
            #expect(refused.status == .badRequest)
            #expect(refused.json.errorField == "body")
            #expect(refused.json["error"]?["message"]?.string?.contains("deeper than 32") == true)
            let bracketsInText = #"{"email": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[@example.com", "password": "x"}"#
            #expect(try await client.send(.post, "/v1/auth/login", body: bracketsInText).json.errorCode != nil)
            #expect(try await client.send(.post, "/v1/auth/login", body: bracketsInText).json.errorField != "body")
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

    @Test("oversized releases and blob lists get 413", arguments: Transport.allCases, StorageEngine.available)
    func oversizedReleaseAndBlobList(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "big-\(uniqueSuffix())"
            try await client.createApp(appId, admin: admin)
            let limit = ServerConfiguration().maximumReleaseBody
            let release = "{\"manifest\":\"" + String(repeating: "A", count: limit) + "\",\"keyId\":\"k\",\"signature\":\"s\"}"
            let published = try await client.send(.post, "/v1/apps/\(appId)/releases", body: release, token: admin)
            #expect(published.status == .contentTooLarge)
            #expect(published.json.errorCode == "payload_too_large")
            let hashes = (0..<40_000).map { _ in "\"" + String(repeating: "a", count: 64) + "\"" }
            let missing = try await client.send(
                .post, "/v1/blobs/missing", body: "{\"sha256\":[" + hashes.joined(separator: ",") + "]}", token: admin)
            #expect(missing.status == .contentTooLarge)
            #expect(missing.json.errorCode == "payload_too_large")
        }
    }

    @Test(
        "SQL metacharacters in path parameters, queries, keys, codes and credentials are data",
        arguments: Transport.allCases, StorageEngine.available)
    func sqlMetacharactersEverywhere(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "meta-\(uniqueSuffix())"
            let key = try await client.createApp(appId, admin: admin)
            let fixture = try ReleaseFixture.make(appId: appId, version: "1.0.0", key: key)
            #expect(try await client.publish(fixture, admin: admin).status == .created)
            let user = try await client.register()
            let nasty = "x' OR '1'='1'; DROP TABLE releases; --"
            let escaped = nasty.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!

            for (path, field) in [
                ("/v1/apps/\(appId)/channels/\(escaped)/releases/1.0.0/rollout", "channel"),
                ("/v1/apps/\(appId)/channels/stable/releases/\(escaped)/rollout", "version"),
            ] {
                let response = try await client.send(.put, path, json: ["rolloutPercent": 50], token: admin)
                #expect(response.status == .badRequest, "\(path)")
                #expect(response.json.errorField == field, "\(path) -> \(response.text)")
            }
            for (query, field) in [("channel=\(escaped)", "channel"), ("current=\(escaped)", "current")] {
                let response = try await client.send(
                    .get, "/v1/apps/\(appId)/releases/latest?\(query)", token: user.access)
                #expect(response.status == .badRequest, "\(query)")
                #expect(response.json.errorField == field, "\(query) -> \(response.text)")
            }
            let manifest = try await client.send(.get, "/v1/apps/\(appId)/releases/\(escaped)/manifest", token: user.access)
            #expect(manifest.status == .badRequest)
            let publicKey = try await client.send(.post, "/v1/apps/\(appId)/keys", json: ["publicKey": nasty], token: admin)
            #expect(publicKey.status == .badRequest)
            #expect(publicKey.json.errorField == "publicKey")

            let credential = try await client.send(.post, "/v1/apps/\(appId)/credentials", token: admin)
            let secret = try #require(credential.json["secret"]?.string)
            let credentialId = try #require(credential.json["credentialId"]?.string)
            func basic(_ id: String, _ secret: String) -> HTTPFields {
                [.authorization: "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()]
            }
            let code = try await client.send(
                .post, "/v1/launch/exchange", json: ["code": nasty], headers: basic(credentialId, secret))
            #expect(code.json.errorCode == "invalid_launch_code")
            for id in [nasty, "' OR 1=1 --", credentialId + "' --"] {
                let response = try await client.send(.post, "/v1/launch/exchange", json: ["code": "x"], headers: basic(id, nasty))
                #expect(response.status == .unauthorized, "\(id)")
            }
            let issued = try await client.send(
                .post, "/v1/launch/codes", json: ["appId": appId, "bundleHash": nasty], token: user.access)
            #expect(issued.status == .badRequest)

            // Nothing changed: the release is still the latest, at 100 %.
            let latest = try await client.send(.get, "/v1/apps/\(appId)/releases/latest", token: user.access)
            #expect(latest.json["release"]?["version"]?.string == "1.0.0")
            #expect(latest.json["release"]?["rolloutPercent"]?.int == 100)
        }
    }

    @Test("a known path with another method gets 405 with Allow", arguments: Transport.allCases, StorageEngine.available)
    func wrongMethod(transport: Transport, engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(transport) { client in
            let blob = "/v1/blobs/" + String(repeating: "a", count: 64)
            for (method, path, allow) in [
                (HTTPRequest.Method.delete, "/v1/me", "GET"), (.get, "/v1/auth/login", "POST"),
                (.patch, blob, "GET, HEAD, PUT"), (.put, "/v1/apps", "GET, POST"),
            ] {
                let response = try await client.send(method, path)
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.json.errorCode == "method_not_allowed", "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
            }
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

@Suite("JSON nesting depth")
struct NestingDepthTests {
    @Test(
        "depth counts brackets outside strings only, escapes included",
        arguments: [
            (#"{}"#, 1), (#"{"a": [1, {"b": []}]}"#, 4), (#""[[[[""#, 0), (#"{"a": "\"[[[\""}"#, 1), (#"[[["\\"]]]"#, 3), ("", 0),
        ])
    func depth(_ text: String, _ expected: Int) {
        #expect(RequestReader.nestingDepth(Array(text.utf8)) == expected)
    }
}
