import Foundation
import Testing

@testable import PWAKitServer

/// Anti-rollback holds when publishes to one channel overlap on a shared PostgreSQL database.
@Suite("Release races")
struct ReleaseRaceTests {
    /// Objects of one run in the shared database: a trigger that holds the insert of version 1.1.0 of
    /// `appId` open, uncommitted, until the test writes a row into the run's gate table (a publish caught
    /// between its check and its commit). Every name carries the run's suffix, so runs never share them,
    /// and ``drop`` removes them with the run's releases.
    struct Hold {
        let suffix = uniqueSuffix()
        var appId: String { "race-hold-\(suffix)" }
        var gate: String { "pwakit_test_gate_\(suffix)" }
        var function: String { "pwakit_test_hold_\(suffix)" }

        var create: [String] {
            [
                "CREATE TABLE \(gate) (opened BOOLEAN)",
                """
                CREATE FUNCTION \(function)() RETURNS trigger AS $body$
                BEGIN
                  IF NEW.app_id = '\(appId)' AND NEW.version = '1.1.0' THEN
                    WHILE NOT EXISTS (SELECT 1 FROM \(gate)) LOOP
                      PERFORM pg_sleep(0.01);
                    END LOOP;
                  END IF;
                  RETURN NEW;
                END $body$ LANGUAGE plpgsql
                """,
                "CREATE TRIGGER \(function) AFTER INSERT ON releases FOR EACH ROW EXECUTE FUNCTION \(function)()",
            ]
        }

        /// Opens the gate first: a held insert keeps locks that dropping the trigger and the gate would wait for.
        var drop: [String] {
            [
                "INSERT INTO \(gate) (opened) VALUES (true)", "DROP TRIGGER IF EXISTS \(function) ON releases",
                "DROP FUNCTION IF EXISTS \(function)()",
                "DROP TABLE IF EXISTS \(gate)", "DELETE FROM releases WHERE app_id = '\(appId)'",
            ]
        }
    }

    static func release(_ appId: String, _ version: String, _ key: Int64) -> ReleaseRecord {
        ReleaseRecord(
            appId: appId, channel: "stable", version: version, versionKey: key, bundleHash: "hash-\(version)",
            manifest: Data(version.utf8), keyId: "k", signature: "s", rolloutPercent: 100,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test("a lower version checked while a higher one is being committed is refused (PostgreSQL)")
    func lowerVersionDuringHigherCommit() async throws {
        guard StorageEngine.postgresURL != nil else {
            // NB: a run that requires PostgreSQL must not count this as passed.
            #expect(!StorageEngine.postgresRequired, "PWAKIT_TEST_REQUIRE_POSTGRES=1 but PWAKIT_TEST_POSTGRES_URL is not set")
            print("Release race suite SKIPPED: PWAKIT_TEST_POSTGRES_URL not set")
            return
        }
        // NB: a database of its own: its trigger on `releases` and the insert it holds open never
        // make another test's statements wait (they did, past a live test's 20 s read timeout).
        try await StorageEngine.postgres.withIsolatedDatabase { url in
            let control = try await SQLStorage.postgres(url: url, maximumConnections: 1)
            let hold = Hold()
            do {
                try await control.migrate()
                for statement in hold.create { try await control.driver.execute(statement) }
                try await race(hold, control: control, url: url)
            } catch {
                for statement in hold.drop { _ = try? await control.driver.execute(statement) }
                try? await control.close()
                throw error
            }
            for statement in hold.drop { try await control.driver.execute(statement) }
            try await control.close()
        }
    }

    private func race(_ hold: Hold, control: SQLStorage, url: String) async throws {
        let storage = try await SQLStorage.postgres(url: url, maximumConnections: 4)
        do {
            let appId = hold.appId
            let higher = Task { try await storage.insertReleaseMovingForward(Self.release(appId, "1.1.0", 1_001_000)) }
            // Wait until 1.1.0 is inserted but held before its commit.
            try await Self.poll(
                control,
                "SELECT 1 AS x FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND datname = current_database()")
            let lower = Task { try await storage.insertReleaseMovingForward(Self.release(appId, "1.0.5", 1_000_005)) }
            // Wait until 1.0.5 either landed (the race) or waits its turn behind 1.1.0.
            try await Self.poll(
                control,
                """
                SELECT 1 AS x FROM releases WHERE app_id = $1 AND version = '1.0.5'
                UNION ALL SELECT 1 AS x FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()
                """, [.text(appId)])
            try await control.driver.execute("INSERT INTO \(hold.gate) (opened) VALUES (true)")
            #expect(try await higher.value)
            #expect(try await lower.value == false, "1.0.5 landed after 1.1.0")
            #expect(try await storage.releases(appId: appId, channel: "stable").map(\.version) == ["1.1.0"])
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
    }

    /// Re-runs `sql` until it returns a row, for at most a minute (on a loaded two-core run the
    /// second insert once showed neither landed nor waiting within ten seconds).
    static func poll(_ storage: SQLStorage, _ sql: String, _ binds: [SQLValue] = []) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while try await storage.driver.query(sql, binds).isEmpty {
            guard ContinuousClock.now < deadline else { throw HarnessError("timed out waiting for: \(sql)") }
            await Task.yield()
        }
    }
}
