import Foundation
import HTTPTypes

/// The schema, as ordered migrations. Types are chosen to mean the same on SQLite and PostgreSQL:
/// `TEXT`, `BIGINT` (times are milliseconds since 1970), `INTEGER`.
enum Schema {
    static let migrations: [(version: Int, statements: [String])] = [
        (
            1,
            [
                """
                CREATE TABLE IF NOT EXISTS users (id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE, \
                display_name TEXT NOT NULL, password_hash TEXT NOT NULL, role TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS refresh_families (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, \
                created_at BIGINT NOT NULL, revoked_at BIGINT)
                """,
                """
                CREATE TABLE IF NOT EXISTS refresh_tokens (token_hash TEXT PRIMARY KEY, family_id TEXT NOT NULL, \
                user_id TEXT NOT NULL, issued_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT)
                """,
                "CREATE INDEX IF NOT EXISTS refresh_tokens_family ON refresh_tokens (family_id)",
                "CREATE TABLE IF NOT EXISTS login_failures (throttle_key TEXT NOT NULL, failed_at BIGINT NOT NULL)",
                "CREATE INDEX IF NOT EXISTS login_failures_key ON login_failures (throttle_key, failed_at)",
                """
                CREATE TABLE IF NOT EXISTS apps (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, \
                icon TEXT NOT NULL, entry_path TEXT NOT NULL, permissions TEXT NOT NULL, channels TEXT NOT NULL, \
                created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS publisher_keys (app_id TEXT NOT NULL, key_id TEXT NOT NULL, \
                public_key TEXT NOT NULL, added_at BIGINT NOT NULL, PRIMARY KEY (app_id, key_id))
                """,
                """
                CREATE TABLE IF NOT EXISTS app_credentials (credential_id TEXT PRIMARY KEY, app_id TEXT NOT NULL, \
                secret_hash TEXT NOT NULL, created_at BIGINT NOT NULL)
                """,
                """
                CREATE TABLE IF NOT EXISTS releases (app_id TEXT NOT NULL, channel TEXT NOT NULL, version TEXT NOT NULL, \
                version_key BIGINT NOT NULL, bundle_hash TEXT NOT NULL, manifest TEXT NOT NULL, key_id TEXT NOT NULL, \
                signature TEXT NOT NULL, rollout_percent INTEGER NOT NULL, created_at BIGINT NOT NULL, \
                PRIMARY KEY (app_id, channel, version_key))
                """,
                "CREATE INDEX IF NOT EXISTS releases_bundle ON releases (app_id, bundle_hash)",
                """
                CREATE TABLE IF NOT EXISTS launch_codes (code_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, \
                app_id TEXT NOT NULL, bundle_hash TEXT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT)
                """,
                """
                CREATE TABLE IF NOT EXISTS server_keys (purpose TEXT PRIMARY KEY, private_key TEXT NOT NULL, \
                created_at BIGINT NOT NULL)
                """,
            ]
        ),
        (
            2,
            [
                "ALTER TABLE publisher_keys ADD COLUMN revoked_at BIGINT",
                "ALTER TABLE app_credentials ADD COLUMN revoked_at BIGINT",
                "ALTER TABLE releases ADD COLUMN withdrawn_at BIGINT",
                "ALTER TABLE refresh_tokens ADD COLUMN used_by TEXT",
                "ALTER TABLE refresh_tokens ADD COLUMN replaced_by TEXT",
                """
                CREATE TABLE IF NOT EXISTS app_publishers (app_id TEXT NOT NULL, user_id TEXT NOT NULL, \
                granted_at BIGINT NOT NULL, PRIMARY KEY (app_id, user_id))
                """,
                "CREATE INDEX IF NOT EXISTS app_publishers_user ON app_publishers (user_id)",
            ]
        ),
        (
            3,
            [
                // NB: the primary key is what stores an event once, whichever replica a resent batch reaches.
                """
                CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, name TEXT NOT NULL, \
                source TEXT NOT NULL, occurred_at BIGINT NOT NULL, received_at BIGINT NOT NULL, properties TEXT NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS events_user ON events (user_id, occurred_at)",
                """
                CREATE TABLE IF NOT EXISTS event_drops (report_id TEXT PRIMARY KEY, user_id TEXT NOT NULL, \
                dropped BIGINT NOT NULL, reported_at BIGINT NOT NULL)
                """,
            ]
        ),
        (
            4,
            [
                """
                CREATE TABLE IF NOT EXISTS flags (app_id TEXT NOT NULL, flag_key TEXT NOT NULL, value TEXT NOT NULL, \
                rollout_percent INTEGER NOT NULL, updated_at BIGINT NOT NULL, PRIMARY KEY (app_id, flag_key))
                """
            ]
        ),
        (
            5,
            [
                """
                CREATE TABLE IF NOT EXISTS devices (token TEXT PRIMARY KEY, user_id TEXT NOT NULL, platform TEXT NOT NULL, \
                environment TEXT NOT NULL, updated_at BIGINT NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS devices_user ON devices (user_id)",
            ]
        ),
        (
            6,
            [
                """
                CREATE TABLE IF NOT EXISTS posts (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, url TEXT NOT NULL, \
                canonical_url TEXT NOT NULL, instructions TEXT, status TEXT NOT NULL, title TEXT, summary TEXT, \
                site_name TEXT, image_hash TEXT, last_error TEXT, created_at BIGINT NOT NULL, updated_at BIGINT NOT NULL, \
                UNIQUE (user_id, canonical_url))
                """,
                "CREATE INDEX IF NOT EXISTS posts_user_newest ON posts (user_id, created_at, id)",
                """
                CREATE TABLE IF NOT EXISTS jobs (id TEXT PRIMARY KEY, kind TEXT NOT NULL, post_id TEXT, state TEXT NOT NULL, \
                priority INTEGER NOT NULL, attempt INTEGER NOT NULL, max_attempts INTEGER NOT NULL, run_at BIGINT NOT NULL, \
                lease_token BIGINT NOT NULL, lease_until BIGINT, worker TEXT, last_error TEXT, created_at BIGINT NOT NULL, \
                finished_at BIGINT)
                """,
                // NB: one active job per post, whoever enqueues it and however many at once.
                """
                CREATE UNIQUE INDEX IF NOT EXISTS jobs_one_active_per_post ON jobs (post_id) \
                WHERE state IN ('available', 'running')
                """,
                "CREATE INDEX IF NOT EXISTS jobs_claim ON jobs (state, priority, run_at, id)",
                "CREATE INDEX IF NOT EXISTS jobs_post ON jobs (post_id)",
            ]
        ),
        (
            7,
            [
                // NB: claims read one kind's available jobs in order, rescues its running ones by lease; partial
                // indexes keep completed and dead jobs (and their dead row versions) out of both scans.
                "CREATE INDEX IF NOT EXISTS jobs_available ON jobs (kind, priority, run_at, id) WHERE state = 'available'",
                "CREATE INDEX IF NOT EXISTS jobs_running ON jobs (kind, lease_until) WHERE state = 'running'",
                "DROP INDEX IF EXISTS jobs_claim",
            ]
        ),
        (
            8,
            [
                """
                CREATE TABLE IF NOT EXISTS identity_devices (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, \
                name TEXT NOT NULL, device_key TEXT NOT NULL, pin_key TEXT NOT NULL, biometric_key TEXT, \
                pin_failures INTEGER NOT NULL, pin_version INTEGER NOT NULL, created_at BIGINT NOT NULL, last_used_at BIGINT, \
                revoked_at BIGINT, revoked_reason TEXT)
                """,
                "CREATE INDEX IF NOT EXISTS identity_devices_user ON identity_devices (user_id)",
                // NB: the key is what refuses a replayed proof, whichever replica it reaches.
                """
                CREATE TABLE IF NOT EXISTS identity_nonces (device_id TEXT NOT NULL, nonce TEXT NOT NULL, \
                expires_at BIGINT NOT NULL, PRIMARY KEY (device_id, nonce))
                """,
                "CREATE INDEX IF NOT EXISTS identity_nonces_expiry ON identity_nonces (expires_at)",
                """
                CREATE TABLE IF NOT EXISTS identity_transactions (id TEXT PRIMARY KEY, user_id TEXT NOT NULL, \
                app_id TEXT NOT NULL, message TEXT NOT NULL, data TEXT, requester_address TEXT NOT NULL, \
                requester_agent TEXT NOT NULL, number INTEGER NOT NULL, nonce TEXT NOT NULL, status TEXT NOT NULL, \
                reason TEXT, answered INTEGER NOT NULL, authenticator TEXT, assertion TEXT, device_id TEXT, \
                created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, decided_at BIGINT)
                """,
                // NB: one pending request per user, however many backends ask at once.
                """
                CREATE UNIQUE INDEX IF NOT EXISTS identity_transactions_one_pending ON identity_transactions (user_id) \
                WHERE status = 'pending'
                """,
                """
                CREATE TABLE IF NOT EXISTS identity_fraud_reports (transaction_id TEXT PRIMARY KEY, \
                user_id TEXT NOT NULL, reported_at BIGINT NOT NULL, muted_until BIGINT NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS identity_fraud_reports_user ON identity_fraud_reports (user_id, muted_until)",
                """
                CREATE TABLE IF NOT EXISTS identity_qr_sessions (id TEXT PRIMARY KEY, key_hash TEXT NOT NULL, \
                nonce TEXT NOT NULL, origin TEXT NOT NULL, status TEXT NOT NULL, user_id TEXT, device_id TEXT, \
                requester_address TEXT NOT NULL, requester_agent TEXT NOT NULL, created_at BIGINT NOT NULL, \
                expires_at BIGINT NOT NULL, decided_at BIGINT, redeemed_at BIGINT)
                """,
                "CREATE INDEX IF NOT EXISTS identity_qr_sessions_expiry ON identity_qr_sessions (expires_at)",
                """
                CREATE TABLE IF NOT EXISTS magic_links (token_hash TEXT PRIMARY KEY, user_id TEXT NOT NULL, \
                challenge TEXT NOT NULL, created_at BIGINT NOT NULL, expires_at BIGINT NOT NULL, used_at BIGINT, \
                failures INTEGER NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS magic_links_expiry ON magic_links (expires_at)",
                "ALTER TABLE refresh_families ADD COLUMN device_id TEXT",
                "CREATE INDEX IF NOT EXISTS refresh_families_device ON refresh_families (device_id)",
            ]
        ),
    ]
}
