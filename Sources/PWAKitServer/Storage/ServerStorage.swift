public import Foundation
import HTTPTypes

/// Everything the server keeps between requests. All shared state lives here, never in one
/// replica's memory, so several stateless servers can share one database.
///
/// Operations that must be atomic across replicas (rotating a refresh token, redeeming a launch
/// code, moving a channel forward) are single conditional statements in the implementations.
public protocol ServerStorage: Sendable {
    /// Creates or upgrades the schema; safe to call at every start.
    func migrate() async throws
    /// Releases connections.
    func close() async throws

    // MARK: Users
    /// Inserts a user; returns `false` when the email is already registered.
    func insertUser(_ user: UserRecord) async throws -> Bool
    /// The user with a normalised email, if any.
    func user(email: String) async throws -> UserRecord?
    /// The user with an id, if any.
    func user(id: String) async throws -> UserRecord?
    /// Replaces a user's password hash when it is still `previous` (a rehash at a higher cost after
    /// a login; a concurrent password change wins). Whether it was replaced.
    func updatePasswordHash(userId: String, from previous: String, to passwordHash: String) async throws -> Bool

    // MARK: Refresh tokens
    /// Starts a refresh-token family and stores its first token.
    func insertRefreshToken(
        tokenHash: String, familyId: String, userId: String, issuedAt: Date, expiresAt: Date, newFamily: Bool,
        deviceId: String?)
        async throws
    /// Presents a refresh token. When it is current, `successor` (the hash of a fresh token) is stored in
    /// its family, expiring at `expiresAt`, **before** the presented token is marked used (by `address`,
    /// replaced by `successor`), so no instant leaves a used token without its successor; a presentation
    /// that loses the race takes its successor back. A token used by the same `address` no more than
    /// `grace` ago whose successor is still unused is a retry: that successor is used up and `successor`
    /// replaces it. Any other presentation of a used token revokes its family.
    func rotateRefreshToken(
        tokenHash: String, successor: String, expiresAt: Date, now: Date, address: String, grace: TimeInterval
    ) async throws -> RefreshConsumption
    /// Revokes a family so none of its tokens can be used again.
    func revokeRefreshFamily(familyId: String, now: Date) async throws
    /// Whether a family exists, is not revoked and, when bound to an enrolled device, that device is
    /// active: whether the session its access tokens belong to is live.
    func refreshFamilyIsActive(familyId: String) async throws -> Bool
    /// In one read, whether the family is active (`nil` when it is not) and the catalog's revision: a number
    /// that changes, on every replica at once, whenever ``apps()`` would answer differently. An authenticated
    /// catalog request so costs no more round trips than any other authenticated request.
    /// NB: apps are only ever inserted, never changed or removed, so the revision is the number of apps.
    func catalogRevision(ifFamilyIsActive familyId: String) async throws -> Int64?
    /// The family and user of a token, if it exists.
    func refreshTokenOwner(tokenHash: String) async throws -> (familyId: String, userId: String)?

    // MARK: Login throttling
    /// Records one failed login for a throttle key (`account:…` or `address:…`).
    func recordLoginFailure(key: String, at: Date) async throws
    /// Counts failures for a key after `since` and no later than `until` (a failure stamped later, by a replica
    /// whose clock runs ahead, counts once its time has come).
    func loginFailureCount(key: String, since: Date, until: Date) async throws -> Int
    /// Forgets the failures of a key (after a successful login).
    func clearLoginFailures(key: String) async throws
    /// Reserves one attempt under every key at once, when each has fewer than its limit after `since`
    /// (and no later than `now`): all or none, atomically against every other reservation on this
    /// database, so parallel requests consume no more than the limit. Whether it was reserved.
    func reserveAttempt(_ keys: [ThrottleKey], since: Date, now: Date) async throws -> Bool
    /// Deletes what no longer matters: throttle rows before `throttleBefore` (known addresses before
    /// `knownBefore`), refresh tokens expired before `now` (a used one is kept until then, so its reuse
    /// is still caught), launch codes expired or used, device-proof nonces whose proofs are past the
    /// skew bound, sign-in codes an hour past their time, expired sign-in links. How many rows went.
    func purge(now: Date, throttleBefore: Date, knownBefore: Date) async throws -> Int
    /// Takes back one reservation of `key` made at `at` (the attempt succeeded and should not count).
    func releaseAttempt(key: String, at: Date) async throws

    // MARK: Catalog
    /// Inserts an app; returns `false` when the id exists.
    func insertApp(_ app: AppRecord) async throws -> Bool
    /// The app with an id.
    func app(id: String) async throws -> AppRecord?
    /// All apps ordered by id.
    func apps() async throws -> [AppRecord]
    /// Adds a publisher key; returns `false` when the app already has that key id.
    func insertPublisherKey(_ key: PublisherKeyRecord) async throws -> Bool
    /// The publisher keys of an app.
    func publisherKeys(appId: String) async throws -> [PublisherKeyRecord]
    /// Revokes a publisher key (it stays listed, with the time); the record, or `nil` when the app has no
    /// such key. Revoking a revoked key changes nothing.
    func revokePublisherKey(appId: String, keyId: String, now: Date) async throws -> PublisherKeyRecord?
    /// Adds a backend credential; returns `false` when the id exists.
    func insertAppCredential(_ credential: AppCredentialRecord) async throws -> Bool
    /// The credential with an id.
    func appCredential(id: String) async throws -> AppCredentialRecord?
    /// The backend credentials of an app, oldest first.
    func appCredentials(appId: String) async throws -> [AppCredentialRecord]
    /// Revokes a credential of an app; the record, or `nil` when the app has no such credential.
    func revokeAppCredential(appId: String, credentialId: String, now: Date) async throws -> AppCredentialRecord?

    // MARK: Publishing rights
    /// Lets a user publish an app; `false` when they already could.
    func grantPublisher(appId: String, userId: String, now: Date) async throws -> Bool
    /// Takes a user's right to publish an app back; `false` when they had none.
    func revokePublisher(appId: String, userId: String) async throws -> Bool
    /// Who may publish an app (administrators aside), by email.
    func publishers(appId: String) async throws -> [AppPublisherRecord]
    /// Whether a user may publish `appId`, or any app when `appId` is `nil`.
    func isPublisher(userId: String, appId: String?) async throws -> Bool

    // MARK: Releases
    /// Inserts a release only if its version is above every release on its channel; returns whether it was inserted.
    func insertReleaseMovingForward(_ release: ReleaseRecord) async throws -> Bool
    /// The ordering key of the newest release on a channel, withdrawn ones included; `nil` when there is none.
    func newestVersionKey(appId: String, channel: String) async throws -> Int64?
    /// The releases of a channel that are not withdrawn, newest version first.
    func releases(appId: String, channel: String) async throws -> [ReleaseRecord]
    /// The release of an app with a bundle hash, unless withdrawn.
    func release(appId: String, bundleHash: String) async throws -> ReleaseRecord?
    /// Withdraws every release of an app signed by `keyId`: no longer served, still counted by the
    /// anti-rollback check (a channel never goes back below a withdrawn version). How many were withdrawn.
    func withdrawReleases(appId: String, keyId: String, now: Date) async throws -> Int
    /// Changes the rollout share of one release; returns `false` when there is no such release.
    func setRollout(appId: String, channel: String, versionKey: Int64, percent: Int) async throws -> Bool

    // MARK: Launch codes
    /// Stores a new launch code.
    func insertLaunchCode(_ code: LaunchCodeRecord) async throws
    /// Marks a launch code used when it is unused, unexpired and for `appId`; returns it, or `nil`.
    func redeemLaunchCode(codeHash: String, appId: String, now: Date) async throws -> LaunchCodeRecord?

    // MARK: Events
    /// Stores every event whose id is not stored yet, in one statement; the ids stored by this call
    /// (an id already stored, by any replica, is left as it was).
    func insertEvents(_ events: [EventRecord]) async throws -> Set<String>
    /// Counts events a user's devices dropped before sending them (a full buffer, an unreadable file),
    /// once per report id; whether this call counted them.
    func recordEventDrops(reportId: String, userId: String, dropped: Int, at: Date) async throws -> Bool
    /// The events of a user, oldest first by occurrence.
    func events(userId: String) async throws -> [EventRecord]
    /// How many events a user's devices reported dropped.
    func droppedEventCount(userId: String) async throws -> Int

    // MARK: Feature flags
    /// Sets a flag's value for every app (`appId` empty) or one, replacing what was there.
    func setFlag(_ flag: FlagRecord) async throws
    /// Removes a flag's value; whether there was one.
    func deleteFlag(appId: String, key: String) async throws -> Bool
    /// Every flag value, by app then key.
    func flags() async throws -> [FlagRecord]

    // MARK: Push devices
    /// Registers a device for a user; a token another user had moves to this one.
    func upsertDevice(_ device: DeviceRecord) async throws
    /// Removes a device; only `userId`'s own when given. Whether there was one.
    func deleteDevice(token: String, userId: String?) async throws -> Bool
    /// A user's devices, most recently registered first.
    func devices(userId: String) async throws -> [DeviceRecord]

    // MARK: Mobile identity
    /// Enrols a device unless its user already has `limit` active ones; whether it was enrolled.
    func enrolDevice(_ device: EnrolledDeviceRecord, limit: Int) async throws -> Bool
    /// An enrolled device by id, active or not.
    func enrolledDevice(id: String) async throws -> EnrolledDeviceRecord?
    /// A user's active enrolled devices, oldest first.
    func enrolledDevices(userId: String) async throws -> [EnrolledDeviceRecord]
    /// Revokes an active device (only `userId`'s when given) and every session issued to it; whether
    /// it was active.
    func revokeEnrolledDevice(id: String, userId: String?, reason: String, now: Date) async throws -> Bool
    /// Records a proof's nonce as used by the device until `expiresAt` and, when `touch`, notes the
    /// device's use at `now`; false when the device had used it already (a replay).
    func useProofNonce(deviceId: String, nonce: String, expiresAt: Date, now: Date, touch: Bool) async throws -> Bool
    /// Counts one PIN attempt for an active device that has fewer than `limit` counted; the count after
    /// it, or nil when none is left (or the device is not active).
    func reservePINAttempt(deviceId: String, limit: Int) async throws -> Int?
    /// Settles a reserved PIN attempt: a right PIN clears the count; a wrong one stays counted and,
    /// when the count has reached `limit`, deregisters the device and ends its sessions. Whether the
    /// device is still active.
    func settlePINAttempt(deviceId: String, right: Bool, limit: Int, now: Date) async throws -> Bool
    /// Sets (or with nil removes) an active device's PIN or biometric key; whether the device is active.
    func setAuthenticatorKey(deviceId: String, kind: String, publicKey: String?) async throws -> Bool
    /// Stores a pending transaction unless its user already has an unexpired pending one (an expired one
    /// is marked expired first); whether it was stored.
    func insertIdentityTransaction(_ transaction: IdentityTransactionRecord, now: Date) async throws -> Bool
    /// A transaction by id.
    func identityTransaction(id: String) async throws -> IdentityTransactionRecord?
    /// A user's pending, unexpired transactions.
    func pendingIdentityTransactions(userId: String, now: Date) async throws -> [IdentityTransactionRecord]
    /// Takes a pending, unexpired transaction's one answer; false when it was taken, ended or expired.
    func takeTransactionAnswer(id: String, now: Date) async throws -> Bool
    /// Ends a transaction whose answer was taken: its status, reason and (approvals) the server's assertion.
    func finishIdentityTransaction(
        id: String, status: String, reason: String?, authenticator: String?, assertion: String?, deviceId: String?, now: Date
    ) async throws
    /// Marks a pending transaction whose time has passed as expired.
    func expireIdentityTransaction(id: String, now: Date) async throws
    /// Records a "this wasn't me" report, muting requests for the user until `mutedUntil`.
    func recordFraudReport(userId: String, transactionId: String, at: Date, mutedUntil: Date) async throws
    /// The end of the latest mute of the user's requests, if any.
    func mutedUntil(userId: String) async throws -> Date?

    /// Stores a new sign-in code's session.
    func insertQRSession(_ session: QRSessionRecord) async throws
    /// A sign-in code's session by id.
    func qrSession(id: String) async throws -> QRSessionRecord?
    /// Answers a pending, unexpired session: `approved` for `userId` from `deviceId`, or `denied`;
    /// false when it was answered or expired.
    func answerQRSession(id: String, approved: Bool, userId: String, deviceId: String, now: Date) async throws -> Bool
    /// Redeems an approved, unexpired session once; its record, or nil when it is not approved, was
    /// redeemed or expired.
    func redeemQRSession(id: String, now: Date) async throws -> QRSessionRecord?

    // MARK: Magic links
    /// Stores a sent sign-in link.
    func insertMagicLink(_ link: MagicLinkRecord) async throws
    /// A link by its token's hash.
    func magicLink(tokenHash: String) async throws -> MagicLinkRecord?
    /// Uses an unused, unexpired link with fewer than `failureLimit` wrong verifiers; whether this call used it.
    func useMagicLink(tokenHash: String, failureLimit: Int, now: Date) async throws -> Bool
    /// Counts an exchange with a wrong verifier.
    func countMagicLinkFailure(tokenHash: String) async throws

    // MARK: Server keys
    /// Stores `candidate` for a purpose unless a key is already stored; returns the stored key.
    func serverKey(purpose: String, candidate: String, now: Date) async throws -> String
    /// Replaces a stored key's text when it is still `previous` (wrapping a key stored in the clear);
    /// whether it was replaced.
    func replaceServerKey(purpose: String, from previous: String, to stored: String) async throws -> Bool

    // MARK: Posts
    /// Inserts a post unless its owner has one with the same canonical URL; returns the post kept
    /// (the new one, or the existing one) and whether it was created.
    func insertPost(_ post: PostRecord) async throws -> (post: PostRecord, created: Bool)
    /// The owner's post for a canonical URL.
    func post(userId: String, canonicalURL: String) async throws -> PostRecord?
    /// A post by id, whoever owns it (callers check the owner).
    func post(id: String) async throws -> PostRecord?
    /// The owner's posts, newest first, after a `(createdAt, id)` cursor.
    func posts(userId: String, before: (createdAt: Date, id: String)?, limit: Int) async throws -> [PostRecord]
    /// Sets a post's note when the owner holds it; the post, or nil.
    func updatePostInstructions(id: String, userId: String, instructions: String?, now: Date) async throws -> PostRecord?
    /// Deletes a post of the owner's and its jobs; whether there was one.
    func deletePost(id: String, userId: String) async throws -> Bool
    /// Moves a post to the canonical URL its page declares, unless the owner already has a post
    /// for it; whether it moved.
    func updatePostCanonical(id: String, userId: String, canonicalURL: String, now: Date) async throws -> Bool
    /// Writes an ingestion's outcome (status, preview fields, error); whether the post still exists.
    func finishPost(_ post: PostRecord) async throws -> Bool

    // MARK: Jobs
    /// Queues a job unless its post already has one available or running; whether it was queued.
    func enqueueJob(_ job: JobRecord) async throws -> Bool
    /// Claims up to `limit` available jobs of `kinds` due at `now`, in priority, run-time and id
    /// order, for `worker` until `leaseUntil`; each claim bumps the job's attempt and its fencing token.
    func claimJobs(kinds: [String], worker: String, limit: Int, now: Date, leaseUntil: Date) async throws -> [JobRecord]
    /// In one statement, completes the jobs of `completing` (each held with its lease token) and
    /// claims up to `limit` more as ``claimJobs(kinds:worker:limit:now:leaseUntil:)`` does; the
    /// claims, and the ids of the completions whose token was still the job's.
    func completeAndClaimJobs(
        completing: [JobLease], kinds: [String], worker: String, limit: Int, now: Date, leaseUntil: Date
    ) async throws -> (claimed: [JobRecord], completed: Set<String>)
    /// Completes a job held with `leaseToken`; false when the token is no longer the job's.
    func completeJob(id: String, leaseToken: Int64, now: Date) async throws -> Bool
    /// Fails an attempt held with `leaseToken`: available again at `retryAt`, or dead after its last
    /// attempt (or at once when `final`), with `error` kept; the new state, or nil when the token is
    /// no longer the job's.
    func failJob(id: String, leaseToken: Int64, error: String, retryAt: Date, now: Date, final: Bool) async throws
        -> JobRecord.State?
    /// Extends the lease held with `leaseToken`; false when the token is no longer the job's.
    func extendJobLease(id: String, leaseToken: Int64, until: Date) async throws -> Bool
    /// Makes running jobs of `kinds` whose lease ended before `now` available again (or dead after
    /// their last attempt); how many.
    func rescueJobs(kinds: [String], now: Date) async throws -> Int
    /// Deletes completed jobs finished before `completedBefore` and dead ones before `deadBefore`, of
    /// `kinds` (nil: every kind); how many.
    func purgeJobs(completedBefore: Date, deadBefore: Date, kinds: [String]?) async throws -> Int
    /// A post's jobs, oldest first.
    func jobs(postId: String) async throws -> [JobRecord]
    /// A job by id.
    func job(id: String) async throws -> JobRecord?
}

extension ServerStorage {
    /// Starts a refresh-token family bound to no enrolled device and stores its first token.
    public func insertRefreshToken(
        tokenHash: String, familyId: String, userId: String, issuedAt: Date, expiresAt: Date, newFamily: Bool
    ) async throws {
        try await insertRefreshToken(
            tokenHash: tokenHash, familyId: familyId, userId: userId, issuedAt: issuedAt, expiresAt: expiresAt,
            newFamily: newFamily, deviceId: nil)
    }
}

/// One throttle a request must pass: its key (`pair:…`, `account:…`, `address:…`, …) and how
/// many attempts the key may have within the window.
public struct ThrottleKey: Sendable, Hashable {
    /// The key.
    public var key: String
    /// Attempts allowed within the window.
    public var limit: Int

    /// A throttle.
    public init(_ key: String, limit: Int) {
        self.key = key
        self.limit = limit
    }
}
