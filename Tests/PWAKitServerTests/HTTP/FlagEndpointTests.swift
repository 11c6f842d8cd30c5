import Foundation
import HTTPTypes
import HummingbirdTesting
import PWAKitBundles
import PWAKitServer
import Testing

@Suite("Feature flags endpoints")
struct FlagEndpointTests {
    @Test(
        "administrators set flags for every app or one; users get the app's value over every app's",
        arguments: StorageEngine.available)
    func setAndRead(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let appId = "flags-\(uniqueSuffix())"
            try await client.createApp(appId, admin: admin)
            let user = try await client.register()
            let global = try await client.send(.put, "/v1/admin/flags/new_onboarding", json: ["value": true], token: admin)
            #expect(global.status == .ok, "\(global.text)")
            #expect(global.json["rolloutPercent"]?.int == 100)
            _ = try await client.send(.put, "/v1/admin/flags/max_items", json: ["value": 20], token: admin)
            _ = try await client.send(.put, "/v1/admin/flags/max_items", json: ["value": 50, "appId": appId], token: admin)
            _ = try await client.send(.put, "/v1/admin/flags/greeting", json: ["value": "hi", "rolloutPercent": 0], token: admin)

            let plain = try await client.send(.get, "/v1/flags", token: user.access)
            #expect(plain.json["flags"]?["new_onboarding"]?.bool == true)
            #expect(plain.json["flags"]?["max_items"]?.int == 20)
            #expect(plain.json["flags"]?["greeting"] == nil)
            let inApp = try await client.send(.get, "/v1/flags?appId=\(appId)", token: user.access)
            #expect(inApp.json["flags"]?["max_items"]?.int == 50)

            let listed = try await client.send(.get, "/v1/admin/flags", token: admin)
            #expect(listed.json.count >= 4)
            let deleted = try await client.send(.delete, "/v1/admin/flags/max_items?appId=\(appId)", token: admin)
            #expect(deleted.status == .noContent)
            let again = try await client.send(.delete, "/v1/admin/flags/max_items?appId=\(appId)", token: admin)
            #expect(again.status == .notFound)
            #expect(
                try await client.send(.get, "/v1/flags?appId=\(appId)", token: user.access).json["flags"]?["max_items"]?.int == 20
            )
        }
    }

    @Test("a percentage rollout includes a stable share of users, the same bucketing as releases")
    func rollout() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            _ = try await client.send(.put, "/v1/admin/flags/beta_ui", json: ["value": true, "rolloutPercent": 30], token: admin)
            var included = 0
            for _ in 0..<40 {
                let user = try await client.register()
                let answer = try await client.send(.get, "/v1/flags", token: user.access)
                let expected = RolloutBucket.includes(userId: user.id, subject: "flag|*|beta_ui", percent: 30)
                #expect((answer.json["flags"]?["beta_ui"]?.bool == true) == expected)
                if expected { included += 1 }
                let second = try await client.send(.get, "/v1/flags", token: user.access)
                #expect((second.json["flags"]?["beta_ui"]?.bool == true) == expected)
            }
            #expect(included > 0 && included < 40)
        }
    }

    @Test("bad keys, values, percentages and app ids are refused naming the field; users cannot set flags")
    func hostile() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        try await harness.test(.router) { client in
            let admin = try await client.login(email: harness.adminEmail, password: Harness.adminPassword)
            let user = try await client.register()
            let cases: [(String, [String: Any], String)] = [
                ("Bad-Key", ["value": true], "key"),
                ("ok", ["value": ["nested": 1]], "value"),
                ("ok", ["value": String(repeating: "x", count: 1025)], "value"),
                ("ok", ["value": true, "rolloutPercent": 101], "rolloutPercent"),
                ("ok", ["value": true, "appId": "../etc"], "appId"),
                ("ok", [:], "value"),
            ]
            for (key, body, field) in cases {
                let answer = try await client.send(.put, "/v1/admin/flags/\(key)", json: body, token: admin)
                #expect(answer.status == .badRequest, "\(key) \(body)")
                #expect(answer.json.errorField == field, "\(answer.text)")
            }
            let unknownApp = try await client.send(
                .put, "/v1/admin/flags/ok", json: ["value": 1, "appId": "no-such-app"], token: admin)
            #expect(unknownApp.status == .notFound)
            #expect(
                try await client.send(.put, "/v1/admin/flags/ok", json: ["value": 1], token: user.access).status == .forbidden)
            #expect(try await client.send(.get, "/v1/admin/flags", token: user.access).status == .forbidden)
            #expect(try await client.send(.get, "/v1/flags").status == .unauthorized)
            #expect(try await client.send(.get, "/v1/flags?appId=..", token: user.access).json.errorField == "appId")
        }
    }

    @Test(
        "the bucketing is stable across platforms: golden values (sha256sum of \"<user>|<subject>\", first 8 hex digits, mod 100)"
    )
    func goldenBuckets() {
        #expect(RolloutBucket.bucket(userId: "user-1", subject: "flag|*|beta_ui") == 18)  // e1ed67da
        #expect(RolloutBucket.bucket(userId: "8f2c", subject: "quiz|stable|1.2.0") == 94)  // 87b9c8ae
        #expect(RolloutBucket.bucket(userId: "0b9d6c2e-4f5a-4c1e-9a55-1f0e2d3c4b5a", subject: "flag|notes|new_editor") == 72)
        #expect(RolloutBucket.includes(userId: "user-1", subject: "flag|*|beta_ui", percent: 19))
        #expect(!RolloutBucket.includes(userId: "user-1", subject: "flag|*|beta_ui", percent: 18))
        #expect(!RolloutBucket.includes(userId: "user-1", subject: "flag|*|beta_ui", percent: 0))
    }
}
