import Foundation
import HTTPTypes
import HummingbirdTesting
import PWAKitServer
import Testing

@Suite("Analytics events endpoint")
struct EventEndpointTests {
    static func event(
        _ id: String = UUID().uuidString.lowercased(), name: String = "screen_view", timestamp: Int64 = 1_800_000_000_000,
        properties: [String: Any] = ["screen": "home"]
    ) -> [String: Any] {
        ["id": id, "name": name, "timestamp": timestamp, "source": "app", "properties": properties]
    }

    @Test(
        "a batch is stored once by event id: a resent batch and an id twice in one batch store nothing twice",
        arguments: StorageEngine.available)
    func storesOnce(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.router) { client in
            let user = try await client.register()
            let events = (0..<50).map { _ in Self.event() }
            let first = try await client.send(.post, "/v1/events", json: ["events": events], token: user.access)
            #expect(first.status == .ok, "\(first.text)")
            #expect(first.json["accepted"]?.int == 50)
            #expect(first.json["duplicates"]?.int == 0)
            let again = try await client.send(.post, "/v1/events", json: ["events": events + [events[0]]], token: user.access)
            #expect(again.json["accepted"]?.int == 0)
            #expect(again.json["duplicates"]?.int == 51)
            let stored = try await harness.server.storage.events(userId: user.id)
            #expect(stored.count == 50)
            #expect(Set(stored.map(\.id)) == Set(events.map { $0["id"] as! String }))
            #expect(stored.allSatisfy { $0.userId == user.id && $0.properties == #"{"screen":"home"}"# })
        }
    }

    @Test("parallel resends of one batch store each event once", arguments: StorageEngine.available)
    func parallelResends(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.live) { client in
            let user = try await client.register()
            let body = Array(try JSONSerialization.data(withJSONObject: ["events": (0..<100).map { _ in Self.event() }]))
            let accepted = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<16 {
                    group.addTask {
                        try await client.sendBytes(.post, "/v1/events", body: body, token: user.access).json["accepted"]?.int
                            ?? -1000
                    }
                }
                return try await group.reduce(0, +)
            }
            #expect(accepted == 100)
            #expect(try await harness.server.storage.events(userId: user.id).count == 100)
        }
    }

    @Test(
        "an event that breaks a rule is refused alone, naming its field; the others are stored",
        arguments: StorageEngine.available)
    func refusesAlone(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.router) { client in
            let user = try await client.register()
            let good = Self.event()
            let hostile: [[String: Any]] = [
                Self.event("not-a-uuid"),
                Self.event(UUID().uuidString),  // upper case
                Self.event(name: "Screen View"),
                Self.event(name: String(repeating: "a", count: 65)),
                Self.event(timestamp: 12),
                Self.event(properties: ["nested": ["a": 1]]),
                Self.event(properties: ["big": String(repeating: "x", count: 1025)]),
                Self.event(properties: Dictionary(uniqueKeysWithValues: (0..<33).map { ("k\($0)", $0) })),
                Self.event(properties: ["Bad Key": 1]),
                [
                    "id": UUID().uuidString.lowercased(), "name": 5, "timestamp": 1_800_000_000_000, "source": "app",
                    "properties": [:],
                ],
                ["id": UUID().uuidString.lowercased()],
                [:],
            ]
            let answer = try await client.send(.post, "/v1/events", json: ["events": [good] + hostile], token: user.access)
            #expect(answer.status == .ok, "\(answer.text)")
            #expect(answer.json["accepted"]?.int == 1)
            #expect(answer.json["rejected"]?.count == hostile.count)
            let fields = (0..<hostile.count).compactMap { answer.json["rejected"]?[$0]?["field"]?.string }
            #expect(
                fields == [
                    "events[1].id", "events[2].id", "events[3].name", "events[4].name", "events[5].timestamp",
                    "events[6].properties.nested", "events[7].properties.big", "events[8].properties",
                    "events[9].properties.Bad Key", "events[10].name", "events[11].name", "events[12].id",
                ])
            #expect(try await harness.server.storage.events(userId: user.id).map(\.id) == [good["id"] as! String])
        }
    }

    @Test("malformed and oversized batches get a clear error naming the field; no token, no storing")
    func malformedBatches() async throws {
        let harness = try await Harness.make(engine: .sqlite)
        try await harness.test(.router) { client in
            let user = try await client.register()
            let noToken = try await client.send(.post, "/v1/events", json: ["events": [Self.event()]])
            #expect(noToken.status == .unauthorized)
            let notJSON = try await client.send(.post, "/v1/events", body: "{\"events\": [", token: user.access)
            #expect(notJSON.status == .badRequest)
            let notArray = try await client.send(.post, "/v1/events", json: ["events": "x"], token: user.access)
            #expect(notArray.json.errorField == "events")
            let tooMany = try await client.send(
                .post, "/v1/events", json: ["events": (0..<501).map { _ in Self.event() }], token: user.access)
            #expect(tooMany.status == .contentTooLarge)
            #expect(tooMany.json.errorField == "events")
            let huge = try await client.send(
                .post, "/v1/events", body: "{\"events\":[\"" + String(repeating: "x", count: 1_100_000) + "\"]}",
                token: user.access)
            #expect(huge.status == .contentTooLarge)
            let badReport = try await client.send(
                .post, "/v1/events", json: ["events": [], "dropped": ["id": "x", "count": 1]], token: user.access)
            #expect(badReport.json.errorField == "dropped.id")
            let zeroReport = try await client.send(
                .post, "/v1/events", json: ["events": [], "dropped": ["id": UUID().uuidString.lowercased(), "count": 0]],
                token: user.access)
            #expect(zeroReport.json.errorField == "dropped.count")
            #expect(try await harness.server.storage.events(userId: user.id).isEmpty)
        }
    }

    @Test("a drop report is counted once by its id", arguments: StorageEngine.available)
    func dropReports(engine: StorageEngine) async throws {
        let harness = try await Harness.make(engine: engine)
        try await harness.test(.router) { client in
            let user = try await client.register()
            let report: [String: Any] = ["id": UUID().uuidString.lowercased(), "count": 7]
            for _ in 0..<3 {
                let answer = try await client.send(
                    .post, "/v1/events", json: ["events": [], "dropped": report], token: user.access)
                #expect(answer.status == .ok)
            }
            _ = try await client.send(
                .post, "/v1/events", json: ["events": [], "dropped": ["id": UUID().uuidString.lowercased(), "count": 2]],
                token: user.access)
            #expect(try await harness.server.storage.droppedEventCount(userId: user.id) == 9)
        }
    }
}
