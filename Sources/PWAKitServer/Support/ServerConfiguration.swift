public import Foundation
import HTTPTypes

/// Tunable behaviour of the server; the defaults are the production values.
public struct ServerConfiguration: Sendable {
    /// The `iss` of every token this server signs.
    public var issuer = "pwakit"
    /// How long an access token is valid.
    public var accessTokenLifetime: TimeInterval = 15 * 60
    /// How long a refresh token is valid.
    public var refreshTokenLifetime: TimeInterval = 30 * 24 * 3600
    /// How long after a refresh token's use the same client address may present it again and be
    /// answered as a retry after a lost response (the successor it was sent, if unused, is ended and a new
    /// one issued) rather than as a theft that revokes the session. 0 turns the grace off.
    public var refreshReuseGrace: TimeInterval = 10
    /// 32 bytes that wrap (AES-256-GCM) the token-signing key stored in the database; `nil` stores it in
    /// the clear. Every replica of one database needs the same key.
    public var keyWrappingKey: Data?
    /// How long a launch code (and launch token) is valid.
    public var launchCodeLifetime: TimeInterval = 60
    /// scrypt cost parameters for password hashes.
    public var passwordHashing = ScryptParameters.standard
    /// Password hashes running or waiting at once; more answer 503 `busy` with `Retry-After`.
    public var hashingQueueLimit = 64
    /// Threads that hash this server's passwords alone (a value below 1 is taken as 1); `nil` (the
    /// default) hashes on the threads every server in the process shares (one per core but one, at
    /// least one). A server embedded beside others gets threads of its own here, so that their hashes
    /// never queue in front of its own. Set in code; `pwakit server` has no flag for it.
    public var hashingThreads: Int?
    /// Failed logins allowed per account from one client address within ``throttleWindow``: what
    /// stops one guesser.
    public var pairFailureLimit = 5
    /// Failed logins allowed per account from all addresses within ``throttleWindow``, except from an
    /// address the owner signed in from before (a known address is never starved by strangers):
    /// what stops guessing spread over many addresses.
    public var accountFailureLimit = 50
    /// Failed logins allowed per client address within ``throttleWindow``, across accounts.
    public var addressFailureLimit = 20
    /// Registrations allowed per client address within ``throttleWindow``.
    public var registrationLimit = 10
    /// Failed launch-code exchanges (bad credential or code) allowed per client address within
    /// ``throttleWindow``.
    public var exchangeFailureLimit = 30
    /// Launch codes one user may be issued within ``throttleWindow``.
    public var launchCodeLimit = 120
    /// How long an address the owner signed in from stays known (exempt from the account-wide limit).
    public var knownAddressLifetime: TimeInterval = 90 * 24 * 3600
    /// The sliding window of the login throttle.
    public var throttleWindow: TimeInterval = 15 * 60
    /// The largest JSON body accepted by ordinary endpoints.
    public var maximumJSONBody = 64 * 1024
    /// The largest `POST /v1/events` body (a batch of up to 500 events).
    public var maximumEventBody = 1024 * 1024
    /// What delivers push notifications (`POST /v1/admin/push`); `nil` answers `push_unavailable`.
    public var pushSender: (any PushSender)?
    /// The `apple-app-site-association` JSON answered at `/.well-known/apple-app-site-association`
    /// (`pwakit sync` renders it from `pwa-config.json`); nil answers 404 there.
    public var siteAssociation: Data?
    /// Whether each request is traced through swift-distributed-tracing's bootstrapped tracer
    /// (Hummingbird's `TracingMiddleware`): on with an OTLP exporter (`pwakit server --otlp-endpoint`).
    public var tracing = false
    /// How many times a post's ingestion is tried before it is dead.
    public var ingestionAttempts = 8
    /// How long completed jobs are kept before the hourly purge deletes them.
    public var completedJobRetention: TimeInterval = 7 * 24 * 3600
    /// How long dead jobs (with their last error) are kept.
    public var deadJobRetention: TimeInterval = 30 * 24 * 3600
    /// How many posts the server ingests at once (`pwakit server --workers`); 0 runs no ingestion.
    public var ingestionWorkers = 2
    /// How long an ingestion worker holds a claimed job before another may rescue it.
    public var ingestionLease: Duration = .seconds(300)
    /// How shared links are fetched (tests narrow its address check and resolver).
    public var linkFetcher = SafeFetcher()
    /// The largest release upload (the base64 manifest and its signature).
    public var maximumReleaseBody = 2 * 1024 * 1024
    /// The largest single blob accepted.
    public var maximumBlobSize = 64 * 1024 * 1024
    /// Active enrolled devices a user may have (1: enrolling a second needs the first revoked).
    public var enrolledDeviceLimit = 1
    /// Wrong PINs a device may enter in a row; the wrong one that reaches it deregisters the device.
    public var pinAttemptLimit = 3
    /// How far a device proof's time may be from the server's clock, either way.
    public var proofClockSkew: TimeInterval = 300
    /// How long a mobile-authentication transaction waits for its answer.
    public var transactionLifetime: TimeInterval = 60
    /// Transactions a user may be asked within ``transactionWindow``; more answer 429.
    public var transactionLimit = 5
    /// The window ``transactionLimit`` counts in.
    public var transactionWindow: TimeInterval = 10 * 60
    /// How long a "this wasn't me" report mutes requests to the user.
    public var fraudMuteDuration: TimeInterval = 20 * 60
    /// How long a sign-in code works; the page asks for a new one after it.
    public var qrCodeLifetime: TimeInterval = 60
    /// Sign-in codes one address may ask for within ``throttleWindow``.
    public var qrCodeLimit = 60
    /// The longest a page's redemption may wait for the person's approval, in seconds.
    public var qrRedeemMaximumWait = 25
    /// The origin people reach the server at (`https://id.example.com`). Sign-in codes name it, and a
    /// page of another origin cannot ask for one; mailed sign-in links point at it unless
    /// ``magicLinkBase`` says otherwise. Without it a code names the `Origin` its page sent (a browser
    /// cannot lie about it, a program can) or the host the request reached, and no link is mailed.
    public var publicOrigin: String?
    /// Redemptions of sign-in codes that may wait for the person's answer at once; more answer at once.
    public var qrRedeemWaitLimit = 256
    /// What sends email (sign-in links); nil: `POST /v1/auth/magic-link` answers 503 `mail_unavailable`.
    public var mailer: (any MailSender)?
    /// The sender address of the server's mail.
    public var mailFrom = "no-reply@pwakit.invalid"
    /// Where a sign-in link points, before its `?token=`: the app's universal link, or by default the
    /// server's own `/v1/auth/magic-link/open` page at the origin the request reached.
    public var magicLinkBase: String?
    /// How long a sign-in link works.
    public var magicLinkLifetime: TimeInterval = 10 * 60
    /// Links one address may be sent within ``throttleWindow``.
    public var magicLinkEmailLimit = 5
    /// Links one client address may ask for within ``throttleWindow``.
    public var magicLinkAddressLimit = 20
    /// Whether to take the client address from `X-Forwarded-For` (only behind a trusted proxy).
    public var trustForwardedFor = false
    /// How many trusted proxies stand in front of the server: the client address is the entry this
    /// many places from the right of `X-Forwarded-For` (each proxy appends the address it saw; the
    /// entries further left are whatever the client wrote).
    public var trustedProxyHops = 1

    /// Where to write one Common Log Format line per answered request; `nil` (the default) writes none.
    public var accessLog: AccessLog?

    /// The production defaults.
    public init() {}
}

/// scrypt's cost parameters: `N` (CPU/memory cost, a power of two), `r` (block size), `p` (parallelism).
public struct ScryptParameters: Sendable, Hashable {
    /// The CPU/memory cost.
    public var n: Int
    /// The block size.
    public var r: Int
    /// The parallelism.
    public var p: Int

    /// Creates parameters.
    public init(n: Int, r: Int, p: Int) {
        self.n = n
        self.r = r
        self.p = p
    }

    /// N = 2^17, r = 8, p = 1 (OWASP's minimum for scrypt): 128 MiB and about a tenth of a second per hash.
    public static let standard = ScryptParameters(n: 1 << 17, r: 8, p: 1)
}
