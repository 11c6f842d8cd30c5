public import Foundation

extension SQLStorage {
    /// See ``ServerStorage``.
    public func insertEvents(_ events: [EventRecord]) async throws -> Set<String> {
        guard !events.isEmpty else { return [] }
        var placeholders: [String] = []
        var binds: [SQLValue] = []
        placeholders.reserveCapacity(events.count)
        binds.reserveCapacity(events.count * 7)
        for (index, event) in events.enumerated() {
            let base = index * 7
            placeholders.append("(" + (1...7).map { "$\(base + $0)" }.joined(separator: ", ") + ")")
            binds += [
                .text(event.id), .text(event.userId), .text(event.name), .text(event.source), .integer(event.occurredAt),
                .date(event.receivedAt), .text(event.properties),
            ]
        }
        let rows = try await driver.query(
            """
            INSERT INTO events (id, user_id, name, source, occurred_at, received_at, properties)
            VALUES \(placeholders.joined(separator: ", ")) ON CONFLICT (id) DO NOTHING RETURNING id
            """,
            binds)
        return Set(try rows.map { try $0.text("id") })
    }

    /// See ``ServerStorage``.
    public func recordEventDrops(reportId: String, userId: String, dropped: Int, at: Date) async throws -> Bool {
        try await !driver.query(
            """
            INSERT INTO event_drops (report_id, user_id, dropped, reported_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (report_id) DO NOTHING RETURNING report_id
            """,
            [.text(reportId), .text(userId), .integer(Int64(dropped)), .date(at)]
        ).isEmpty
    }

    /// See ``ServerStorage``.
    public func events(userId: String) async throws -> [EventRecord] {
        try await driver.query("SELECT * FROM events WHERE user_id = $1 ORDER BY occurred_at, id", [.text(userId)]).map {
            row in
            EventRecord(
                id: try row.text("id"), userId: try row.text("user_id"), name: try row.text("name"),
                source: try row.text("source"), occurredAt: try row.integer("occurred_at"),
                receivedAt: try row.date("received_at"), properties: try row.text("properties"))
        }
    }

    /// See ``ServerStorage``.
    public func droppedEventCount(userId: String) async throws -> Int {
        let rows = try await driver.query(
            "SELECT CAST(COALESCE(SUM(dropped), 0) AS BIGINT) AS total FROM event_drops WHERE user_id = $1", [.text(userId)])
        return Int(try rows.first?.integer("total") ?? 0)
    }
}
