import Foundation
import NIOCore
import PWAKitServer
import Testing

/// One suite, run against every available engine; PostgreSQL only when `PWAKIT_TEST_POSTGRES_URL` is set.
@Suite("Storage")
struct StorageTests {
    @Test("PostgreSQL is skipped only loudly, never when the run requires it, and answers when configured")
    func postgresAvailability() async throws {
        guard StorageEngine.postgresURL != nil else {
            print("PostgreSQL suite SKIPPED: PWAKIT_TEST_POSTGRES_URL not set")
            #expect(!StorageEngine.postgresRequired, "PWAKIT_TEST_REQUIRE_POSTGRES=1 but PWAKIT_TEST_POSTGRES_URL is not set")
            return
        }
        #expect(StorageEngine.available == [.sqlite, .postgres])
        try await StorageEngine.postgres.withStorage { storage in try await storage.migrate() }
    }

    @Test("PostgreSQL URLs: every mistake named; sslmode disable, prefer and require do what libpq's do")
    func postgresTLS() async throws {
        #expect { try PostgresConnectionOptions(url: "mysql://u@h/db") } throws: { "\($0)".contains("postgres://") }
        #expect { try PostgresConnectionOptions(url: "postgres://h/db") } throws: { "\($0)".contains("user") }
        #expect { try PostgresConnectionOptions(url: "postgres://u@h/db?sslmode=always") } throws: {
            "\($0)".contains("verify-full")
        }
        #expect { try PostgresConnectionOptions(url: "postgres://u@h/db?timeout=3") } throws: { "\($0)".contains("timeout") }
        let options = try PostgresConnectionOptions(
            url: "postgres://u%40x@h:6000/db?sslmode=verify-full&sslrootcert=/ca.pem", password: "p")
        #expect(options.user == "u@x" && options.port == 6000 && options.password == "p" && options.database == "db")
        #expect(options.tlsMode == .verifyFull && options.rootCertificatePath == "/ca.pem")
        #expect(try PostgresConnectionOptions(url: "postgres://u:inline@h/db", password: "other").password == "inline")
        #expect(try PostgresConnectionOptions(url: "postgres://u@h").tlsMode == .prefer)
        guard let url = StorageEngine.postgresURL else { return }
        let separator = url.contains("?") ? "&" : "?"
        let plain = try await SQLStorage.postgres(url: url + separator + "sslmode=disable", maximumConnections: 1)
        let state = try #require(try await plain.postgresTLS())
        #expect(state.inUse == false)
        try await plain.close()
        let preferred = try await SQLStorage.postgres(url: url + separator + "sslmode=prefer", maximumConnections: 1)
        #expect(try await preferred.postgresTLS()?.inUse == state.offered)
        try await preferred.close()
        if state.offered {
            let required = try await SQLStorage.postgres(url: url + separator + "sslmode=require", maximumConnections: 1)
            #expect(try await required.postgresTLS()?.inUse == true)
            try await required.close()
        } else {
            // A server without TLS is refused when TLS is required, never silently used in the clear.
            await #expect(throws: (any Error).self) {
                _ = try await SQLStorage.postgres(url: url + separator + "sslmode=require", maximumConnections: 1)
            }
        }
        await #expect {
            _ = try await SQLStorage.postgres(url: url + separator + "sslmode=verify-full&sslrootcert=/nonexistent.pem")
        } throws: { "\($0)".contains("sslrootcert") }
    }

    @Test("users: insert once per email, find by email and id", arguments: StorageEngine.available)
    func users(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            try await storage.migrate()
            let suffix = uniqueSuffix()
            let user = UserRecord(
                id: "u-\(suffix)", email: "s-\(suffix)@example.com", displayName: "Robert'); DROP TABLE users;--",
                passwordHash: "h", role: .user, createdAt: Date(timeIntervalSince1970: 1_700_000_000.123))
            #expect(try await storage.insertUser(user))
            var clash = user
            clash.id = "other-\(suffix)"
            #expect(try await storage.insertUser(clash) == false)
            #expect(try await storage.user(email: user.email) == user)
            #expect(try await storage.user(id: user.id) == user)
            #expect(try await storage.user(id: "missing-\(suffix)") == nil)
        }
    }

    @Test(
        "refresh tokens rotate once, successor stored first; reuse revokes the family; expiry", arguments: StorageEngine.available
    )
    func refreshTokens(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let s = uniqueSuffix()
            let now = Date(timeIntervalSince1970: 4_200_000_000)
            func rotate(
                _ token: String, to successor: String, at time: Date = now, from address: String = "a", grace: TimeInterval = 0
            )
                async throws -> RefreshConsumption
            {
                try await storage.rotateRefreshToken(
                    tokenHash: token, successor: successor, expiresAt: time + 100, now: time, address: address, grace: grace)
            }
            try await storage.insertRefreshToken(
                tokenHash: "a-\(s)", familyId: "f-\(s)", userId: "u", issuedAt: now, expiresAt: now + 100, newFamily: true)
            #expect(try await rotate("a-\(s)", to: "b-\(s)") == .rotated(familyId: "f-\(s)", userId: "u"))
            // The successor is in the family, unused.
            #expect(try await storage.refreshTokenOwner(tokenHash: "b-\(s)")?.familyId == "f-\(s)")
            #expect(try await rotate("a-\(s)", to: "x-\(s)") == .reused(familyId: "f-\(s)"))
            // A refused presentation stores nothing.
            #expect(try await storage.refreshTokenOwner(tokenHash: "x-\(s)") == nil)
            #expect(try await rotate("b-\(s)", to: "y-\(s)") == .reused(familyId: "f-\(s)"))
            #expect(try await storage.refreshTokenOwner(tokenHash: "y-\(s)") == nil)
            #expect(try await rotate("zzz-\(s)", to: "z-\(s)") == .unknown)
            try await storage.insertRefreshToken(
                tokenHash: "c-\(s)", familyId: "g-\(s)", userId: "u", issuedAt: now, expiresAt: now + 100, newFamily: true)
            #expect(try await rotate("c-\(s)", to: "d-\(s)", at: now + 100) == .expired)
            #expect(try await storage.refreshTokenOwner(tokenHash: "c-\(s)")?.familyId == "g-\(s)")
            #expect(try await storage.refreshTokenOwner(tokenHash: "d-\(s)") == nil)
        }
    }

    @Test(
        "grace: the same address retrying within the window gets a new successor and ends the lost one; others revoke",
        arguments: StorageEngine.available)
    func refreshGrace(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let s = uniqueSuffix()
            let now = Date(timeIntervalSince1970: 4_200_000_000)
            func rotate(_ token: String, to successor: String, at time: Date, from address: String) async throws
                -> RefreshConsumption
            {
                try await storage.rotateRefreshToken(
                    tokenHash: token, successor: successor, expiresAt: time + 1000, now: time, address: address, grace: 10)
            }
            try await storage.insertRefreshToken(
                tokenHash: "t0-\(s)", familyId: "f-\(s)", userId: "u", issuedAt: now, expiresAt: now + 1000, newFamily: true)
            #expect(
                try await rotate("t0-\(s)", to: "t1-\(s)", at: now, from: "10.0.0.1") == .rotated(familyId: "f-\(s)", userId: "u")
            )
            // The answer carrying t1 was lost; the client retries t0 five seconds later from the same address.
            #expect(
                try await rotate("t0-\(s)", to: "t2-\(s)", at: now + 5, from: "10.0.0.1")
                    == .retried(familyId: "f-\(s)", userId: "u"))
            // The lost t1 is used up: whoever holds it holds nothing, and presenting it revokes the family.
            #expect(
                try await rotate("t2-\(s)", to: "t3-\(s)", at: now + 6, from: "10.0.0.1")
                    == .rotated(familyId: "f-\(s)", userId: "u"))
            #expect(try await rotate("t1-\(s)", to: "t9-\(s)", at: now + 30, from: "10.0.0.1") == .reused(familyId: "f-\(s)"))
            #expect(try await storage.refreshFamilyIsActive(familyId: "f-\(s)") == false)

            // Another address within the window is a theft.
            try await storage.insertRefreshToken(
                tokenHash: "u0-\(s)", familyId: "g-\(s)", userId: "u", issuedAt: now, expiresAt: now + 1000, newFamily: true)
            #expect(
                try await rotate("u0-\(s)", to: "u1-\(s)", at: now, from: "10.0.0.1") == .rotated(familyId: "g-\(s)", userId: "u")
            )
            #expect(try await rotate("u0-\(s)", to: "u2-\(s)", at: now + 1, from: "10.9.9.9") == .reused(familyId: "g-\(s)"))
            #expect(try await storage.refreshFamilyIsActive(familyId: "g-\(s)") == false)

            // The same address after the window is a theft.
            try await storage.insertRefreshToken(
                tokenHash: "v0-\(s)", familyId: "h-\(s)", userId: "u", issuedAt: now, expiresAt: now + 1000, newFamily: true)
            #expect(
                try await rotate("v0-\(s)", to: "v1-\(s)", at: now, from: "10.0.0.1") == .rotated(familyId: "h-\(s)", userId: "u")
            )
            #expect(try await rotate("v0-\(s)", to: "v2-\(s)", at: now + 11, from: "10.0.0.1") == .reused(familyId: "h-\(s)"))

            // Within the window, but the successor was used already: not a lost answer, a theft.
            try await storage.insertRefreshToken(
                tokenHash: "w0-\(s)", familyId: "i-\(s)", userId: "u", issuedAt: now, expiresAt: now + 1000, newFamily: true)
            #expect(
                try await rotate("w0-\(s)", to: "w1-\(s)", at: now, from: "10.0.0.1") == .rotated(familyId: "i-\(s)", userId: "u")
            )
            #expect(
                try await rotate("w1-\(s)", to: "w2-\(s)", at: now + 1, from: "10.0.0.1")
                    == .rotated(familyId: "i-\(s)", userId: "u"))
            #expect(try await rotate("w0-\(s)", to: "w3-\(s)", at: now + 2, from: "10.0.0.1") == .reused(familyId: "i-\(s)"))
        }
    }

    @Test(
        "concurrent presentations of one refresh token: exactly one rotates, the losers keep nothing",
        arguments: StorageEngine.available)
    func refreshRace(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let s = uniqueSuffix()
            let now = Date(timeIntervalSince1970: 4_200_000_000)
            try await storage.insertRefreshToken(
                tokenHash: "r-\(s)", familyId: "f-\(s)", userId: "u", issuedAt: now, expiresAt: now + 100, newFamily: true)
            let results = try await withThrowingTaskGroup(of: (Int, RefreshConsumption).self) { group in
                for index in 0..<8 {
                    group.addTask {
                        (
                            index,
                            try await storage.rotateRefreshToken(
                                tokenHash: "r-\(s)", successor: "r\(index)-\(s)", expiresAt: now + 100, now: now,
                                address: "a\(index)", grace: 0)
                        )
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = results.filter { if case .rotated = $0.1 { true } else { false } }
            #expect(winners.count == 1)
            // Only the winner's successor exists (the family is revoked by the losers' reuse, as before).
            for (index, _) in results {
                let stored = try await storage.refreshTokenOwner(tokenHash: "r\(index)-\(s)") != nil
                #expect(stored == (index == winners.first?.0))
            }
        }
    }

    @Test("login failures are counted per key within the window", arguments: StorageEngine.available)
    func throttle(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let key = "account:\(uniqueSuffix())"
            let now = Date(timeIntervalSince1970: 4_200_000_000)
            for offset in [0.0, 10, 20] { try await storage.recordLoginFailure(key: key, at: now + offset) }
            #expect(try await storage.loginFailureCount(key: key, since: now + 5, until: now + 20) == 2)
            #expect(try await storage.loginFailureCount(key: key + "x", since: now - 5, until: now + 20) == 0)
            // Failures stamped after `until` (another run's clock, or a replica's running ahead) do not count yet.
            #expect(try await storage.loginFailureCount(key: key, since: now - 5, until: now + 15) == 2)
            try await storage.clearLoginFailures(key: key)
            #expect(try await storage.loginFailureCount(key: key, since: now - 5, until: now + 20) == 0)
        }
    }

    @Test("100 parallel reservations under a limit of 5: exactly 5 succeed, all keys or none", arguments: StorageEngine.available)
    func atomicReservations(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let s = uniqueSuffix()
            let now = Date(timeIntervalSince1970: 4_200_000_000)
            let keys = [ThrottleKey("pair:\(s)", limit: 5), ThrottleKey("address:\(s)", limit: 50)]
            let granted = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<100 { group.addTask { try await storage.reserveAttempt(keys, since: now - 60, now: now) } }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(granted == 5)
            #expect(try await storage.loginFailureCount(key: "pair:\(s)", since: now - 60, until: now) == 5)
            // None or all: the refused reservations left nothing under the looser key.
            #expect(try await storage.loginFailureCount(key: "address:\(s)", since: now - 60, until: now) == 5)
            // Taking one back frees one place, once.
            try await storage.releaseAttempt(key: "pair:\(s)", at: now)
            #expect(try await storage.loginFailureCount(key: "pair:\(s)", since: now - 60, until: now) == 4)
            #expect(try await storage.reserveAttempt(keys, since: now - 60, now: now))
            #expect(try await storage.reserveAttempt(keys, since: now - 60, now: now) == false)
            // Outside the window the old attempts no longer count.
            #expect(try await storage.reserveAttempt(keys, since: now + 1, now: now + 61))
        }
    }

    @Test(
        "purge: old throttle rows, expired refresh tokens and spent launch codes go; live ones stay",
        arguments: StorageEngine.available)
    func purge(engine: StorageEngine) async throws {
        // NB: a database of its own on PostgreSQL: a purge reaches every row, and real-time servers started by
        // other suites purge at start too.
        try await engine.withIsolatedStorage { storage in
            try await storage.migrate()
            let s = uniqueSuffix()
            // NB: purge deletes everything older than `now` in the shared database: a `now` before every other
            // suite's times (harnesses run in 2100–2111, real-time servers in the present) touches only this test's rows.
            let now = Date(timeIntervalSince1970: 1_000_000_000)
            try await storage.recordLoginFailure(key: "pair:old-\(s)", at: now - 1000)
            try await storage.recordLoginFailure(key: "pair:new-\(s)", at: now - 10)
            try await storage.recordLoginFailure(key: "known:old-\(s)", at: now - 1000)
            try await storage.insertRefreshToken(
                tokenHash: "expired-\(s)", familyId: "f-\(s)", userId: "u", issuedAt: now - 100, expiresAt: now - 1,
                newFamily: true)
            try await storage.insertRefreshToken(
                tokenHash: "live-\(s)", familyId: "f-\(s)", userId: "u", issuedAt: now - 100, expiresAt: now + 100,
                newFamily: false)
            _ = try await storage.rotateRefreshToken(
                tokenHash: "live-\(s)", successor: "next-\(s)", expiresAt: now + 100, now: now, address: "a", grace: 0)
            for (name, expires) in [("spent", now + 50), ("expired", now - 1), ("fresh", now + 50)] {
                try await storage.insertLaunchCode(
                    LaunchCodeRecord(codeHash: "\(name)-\(s)", userId: "u", appId: "a-\(s)", bundleHash: "b", expiresAt: expires))
            }
            #expect(try await storage.redeemLaunchCode(codeHash: "spent-\(s)", appId: "a-\(s)", now: now) != nil)
            _ = try await storage.purge(now: now, throttleBefore: now - 100, knownBefore: now - 5000)
            #expect(try await storage.loginFailureCount(key: "pair:old-\(s)", since: now - 5000, until: now) == 0)
            #expect(try await storage.loginFailureCount(key: "pair:new-\(s)", since: now - 5000, until: now) == 1)
            #expect(try await storage.loginFailureCount(key: "known:old-\(s)", since: now - 5000, until: now) == 1)
            #expect(try await storage.refreshTokenOwner(tokenHash: "expired-\(s)") == nil)
            // The unused, unexpired code still redeems once; the others are gone.
            #expect(try await storage.redeemLaunchCode(codeHash: "fresh-\(s)", appId: "a-\(s)", now: now) != nil)
            // A used token before its expiry stays, so presenting it again is still caught as reuse.
            #expect(try await storage.refreshTokenOwner(tokenHash: "live-\(s)") != nil)
            if case .reused = try await storage.rotateRefreshToken(
                tokenHash: "live-\(s)", successor: "again-\(s)", expiresAt: now + 100, now: now, address: "b", grace: 0)
            {
            } else {
                Issue.record("reuse of a used token was not caught after a purge")
            }
        }
    }

    @Test("catalog, keys, credentials", arguments: StorageEngine.available)
    func catalog(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let id = "app-\(uniqueSuffix())"
            let app = AppRecord(
                id: id, name: "N", description: "D", icon: "", entryPath: "index.html", permissions: ["a", "b"],
                channels: ["stable"],
                createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            #expect(try await storage.insertApp(app))
            #expect(try await storage.insertApp(app) == false)
            #expect(try await storage.app(id: id) == app)
            #expect(try await storage.apps().contains(app))
            let key = PublisherKeyRecord(appId: id, keyId: "k1", publicKey: "pk", addedAt: app.createdAt)
            #expect(try await storage.insertPublisherKey(key))
            #expect(try await storage.insertPublisherKey(key) == false)
            #expect(try await storage.publisherKeys(appId: id) == [key])
            let credential = AppCredentialRecord(credentialId: "c-\(id)", appId: id, secretHash: "h", createdAt: app.createdAt)
            #expect(try await storage.insertAppCredential(credential))
            #expect(try await storage.appCredential(id: "c-\(id)") == credential)
            #expect(try await storage.appCredentials(appId: id) == [credential])

            // Revocation keeps the record, with its time, and is idempotent.
            let revokedAt = app.createdAt + 60
            #expect(try await storage.revokePublisherKey(appId: id, keyId: "k1", now: revokedAt)?.revokedAt == revokedAt)
            #expect(try await storage.revokePublisherKey(appId: id, keyId: "k1", now: revokedAt + 60)?.revokedAt == revokedAt)
            #expect(try await storage.revokePublisherKey(appId: id, keyId: "nope", now: revokedAt) == nil)
            #expect(try await storage.revokePublisherKey(appId: "other-\(id)", keyId: "k1", now: revokedAt) == nil)
            #expect(try await storage.publisherKeys(appId: id).first?.revokedAt == revokedAt)
            #expect(try await storage.revokeAppCredential(appId: "other-\(id)", credentialId: "c-\(id)", now: revokedAt) == nil)
            #expect(
                try await storage.revokeAppCredential(appId: id, credentialId: "c-\(id)", now: revokedAt)?.revokedAt == revokedAt)
            #expect(try await storage.appCredential(id: "c-\(id)")?.revokedAt == revokedAt)
        }
    }

    @Test("publishing rights per app: grant once, list with emails, revoke", arguments: StorageEngine.available)
    func publishers(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let s = uniqueSuffix()
            let user = UserRecord(
                id: "pub-\(s)", email: "pub-\(s)@example.com", displayName: "P", passwordHash: "h", role: .user,
                createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            #expect(try await storage.insertUser(user))
            #expect(try await storage.isPublisher(userId: user.id, appId: nil) == false)
            #expect(try await storage.grantPublisher(appId: "a-\(s)", userId: user.id, now: user.createdAt))
            #expect(try await storage.grantPublisher(appId: "a-\(s)", userId: user.id, now: user.createdAt) == false)
            #expect(try await storage.isPublisher(userId: user.id, appId: "a-\(s)"))
            #expect(try await storage.isPublisher(userId: user.id, appId: "b-\(s)") == false)
            #expect(try await storage.isPublisher(userId: user.id, appId: nil))
            #expect(
                try await storage.publishers(appId: "a-\(s)")
                    == [AppPublisherRecord(appId: "a-\(s)", userId: user.id, email: user.email, grantedAt: user.createdAt)])
            #expect(try await storage.revokePublisher(appId: "a-\(s)", userId: user.id))
            #expect(try await storage.revokePublisher(appId: "a-\(s)", userId: user.id) == false)
            #expect(try await storage.isPublisher(userId: user.id, appId: nil) == false)
        }
    }

    @Test("releases only move forward per channel; exact bytes round-trip", arguments: StorageEngine.available)
    func releases(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let id = "rel-\(uniqueSuffix())"
            func release(_ key: Int64, channel: String = "stable") -> ReleaseRecord {
                ReleaseRecord(
                    appId: id, channel: channel, version: "0.0.\(key)", versionKey: key, bundleHash: "hash-\(key)-\(channel)",
                    manifest: Data([0, 0xFF, 0x22, 0x27, UInt8(key)]), keyId: "k", signature: "s", rolloutPercent: 50,
                    createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            }
            #expect(try await storage.insertReleaseMovingForward(release(2)))
            #expect(try await storage.insertReleaseMovingForward(release(2)) == false)
            #expect(try await storage.insertReleaseMovingForward(release(1)) == false)
            #expect(try await storage.insertReleaseMovingForward(release(1, channel: "beta")))
            #expect(try await storage.insertReleaseMovingForward(release(3)))
            #expect(try await storage.releases(appId: id, channel: "stable").map(\.versionKey) == [3, 2])
            #expect(try await storage.release(appId: id, bundleHash: "hash-2-stable") == release(2))
            #expect(try await storage.setRollout(appId: id, channel: "stable", versionKey: 3, percent: 100))
            #expect(try await storage.setRollout(appId: id, channel: "stable", versionKey: 9, percent: 100) == false)
            #expect(try await storage.releases(appId: id, channel: "stable").first?.rolloutPercent == 100)

            // Withdrawing by key: no longer served, still counted against rollback.
            var other = release(4)
            other.keyId = "k2"
            #expect(try await storage.insertReleaseMovingForward(other))
            #expect(try await storage.withdrawReleases(appId: id, keyId: "k2", now: other.createdAt) == 1)
            #expect(try await storage.withdrawReleases(appId: id, keyId: "k2", now: other.createdAt) == 0)
            #expect(try await storage.releases(appId: id, channel: "stable").map(\.versionKey) == [3, 2])
            #expect(try await storage.release(appId: id, bundleHash: "hash-4-stable") == nil)
            #expect(try await storage.insertReleaseMovingForward(release(4)) == false)
            #expect(try await storage.insertReleaseMovingForward(release(5)))
        }
    }

    @Test("launch codes redeem once, only for their app, only before expiry", arguments: StorageEngine.available)
    func launchCodes(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let s = uniqueSuffix()
            let now = Date(timeIntervalSince1970: 4_200_000_000)
            let code = LaunchCodeRecord(codeHash: "code-\(s)", userId: "u", appId: "app", bundleHash: "b", expiresAt: now + 60)
            try await storage.insertLaunchCode(code)
            #expect(try await storage.redeemLaunchCode(codeHash: code.codeHash, appId: "other", now: now) == nil)
            #expect(try await storage.redeemLaunchCode(codeHash: code.codeHash, appId: "app", now: now) == code)
            #expect(try await storage.redeemLaunchCode(codeHash: code.codeHash, appId: "app", now: now) == nil)
            let late = LaunchCodeRecord(codeHash: "late-\(s)", userId: "u", appId: "app", bundleHash: "b", expiresAt: now + 60)
            try await storage.insertLaunchCode(late)
            #expect(try await storage.redeemLaunchCode(codeHash: late.codeHash, appId: "app", now: now + 60) == nil)
        }
    }

    @Test("the server key is created once and shared", arguments: StorageEngine.available)
    func serverKey(engine: StorageEngine) async throws {
        try await engine.withStorage { storage in
            try await storage.migrate()
            let purpose = "test-\(uniqueSuffix())"
            let first = try await storage.serverKey(purpose: purpose, candidate: "one", now: Date())
            let second = try await storage.serverKey(purpose: purpose, candidate: "two", now: Date())
            #expect(first == "one")
            #expect(second == "one")
        }
    }
}
