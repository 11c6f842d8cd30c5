import Foundation
import HTTPTypes
public import Hummingbird
import JWTKit
import Logging
import NIOCore

/// The platform server: identity, catalog, releases, blob delivery and launch codes over one
/// ``ServerStorage`` and one ``BlobStore``. Build it with ``make(storage:blobs:configuration:environment:)``,
/// then serve ``router()`` with Hummingbird.
public struct PlatformServer: Sendable {
    /// Where state lives.
    public let storage: any ServerStorage
    /// Where bundle files live.
    public let blobs: any BlobStore
    /// Behaviour settings.
    public let configuration: ServerConfiguration
    /// Clock and randomness.
    public let environment: ServerEnvironment

    let tokens: TokenService
    let identity: IdentityService
    let catalog: CatalogService
    let releases: ReleaseService
    let launch: LaunchService
    let mobileIdentity: MobileIdentityService
    let qrSignIn: QRSignInService
    let magicLinks: MagicLinkService

    /// Migrates the schema, loads (or creates) the shared token-signing key and wires the services.
    public static func make(
        storage: any ServerStorage, blobs: any BlobStore, configuration: ServerConfiguration = .init(),
        environment: ServerEnvironment = .live
    ) async throws -> PlatformServer {
        try await storage.migrate()
        let tokens = try await TokenService.load(storage: storage, environment: environment, configuration: configuration)
        return try PlatformServer(
            storage: storage, blobs: blobs, configuration: configuration, environment: environment, tokens: tokens)
    }

    private init(
        storage: any ServerStorage, blobs: any BlobStore, configuration: ServerConfiguration, environment: ServerEnvironment,
        tokens: TokenService
    ) throws {
        self.storage = storage
        self.blobs = blobs
        self.configuration = configuration
        self.environment = environment
        self.tokens = tokens
        let identity = try IdentityService(
            storage: storage, tokens: tokens, environment: environment, configuration: configuration)
        self.identity = identity
        let mobileIdentity = MobileIdentityService(
            storage: storage, environment: environment, configuration: configuration, identity: identity)
        self.mobileIdentity = mobileIdentity
        self.magicLinks = MagicLinkService(
            storage: storage, environment: environment, configuration: configuration, identity: identity)
        self.qrSignIn = QRSignInService(
            storage: storage, environment: environment, configuration: configuration, mobile: mobileIdentity)
        let catalog = CatalogService(storage: storage, environment: environment)
        self.catalog = catalog
        let releases = ReleaseService(storage: storage, blobs: blobs, catalog: catalog, environment: environment)
        self.releases = releases
        self.launch = LaunchService(
            storage: storage, tokens: tokens, releases: releases, catalog: catalog, environment: environment,
            configuration: configuration)
    }

    /// The router with every endpoint, plus any `extraRoutes` (benchmarks add theirs here).
    public func router(extraRoutes: (Router<ServerRequestContext>, PlatformServer) -> Void = { _, _ in }) -> Router<
        ServerRequestContext
    > {
        let router = Router(context: ServerRequestContext.self)
        // NB: outside the error middleware, so errors are logged as the status they are answered with.
        if let accessLog = configuration.accessLog { router.add(middleware: AccessLogMiddleware(log: accessLog)) }
        if configuration.tracing { router.add(middleware: TracingMiddleware()) }
        router.add(middleware: ErrorMiddleware())
        let table = RouteTable(router: router)
        addRoutes(to: table)
        table.answerOtherMethods()
        extraRoutes(router, self)
        return router
    }

    /// Every route ``router()`` registers, in OpenAPI path form.
    public var routes: [ServerRoute] {
        let table = RouteTable(router: Router(context: ServerRequestContext.self))
        addRoutes(to: table)
        return table.routes
    }

    private func addRoutes(to table: RouteTable) {
        table.add(.get, "/v1/health") { _, _ in try JSONResponse.make(["status": "ok"]) }
        table.add(.get, "/.well-known/apple-app-site-association") { _, _ in
            guard let document = configuration.siteAssociation else { throw APIError.notFound("apple-app-site-association") }
            // NB: Apple's CDN fetches it without redirects; an hour of caching keeps a fixed file cheap.
            return JSONResponse.make(encoded: ByteBuffer(bytes: document), headers: [.cacheControl: "public, max-age=3600"])
        }
        addIdentityRoutes(to: table)
        addCatalogRoutes(to: table)
        addBlobRoutes(to: table)
        addReleaseRoutes(to: table)
        addLaunchRoutes(to: table)
        addEventRoutes(to: table)
        addFlagRoutes(to: table)
        addDeviceRoutes(to: table)
        addPostRoutes(to: table)
        addMobileIdentityRoutes(to: table)
        addQRSignInRoutes(to: table)
        addMagicLinkRoutes(to: table)
    }

    /// Verifies the bearer access token and returns the user id and role; 401 otherwise.
    public func authenticate(_ request: Request) async throws -> (userId: String, role: UserRole) {
        let claims = try verifiedAccessClaims(request)
        // NB: one indexed read per request, so logout and refresh-token reuse end access tokens at once.
        guard try await storage.refreshFamilyIsActive(familyId: claims.sid) else { throw Self.sessionEnded }
        return (claims.sub.value, UserRole(rawValue: claims.role))
    }

    /// ``authenticate(_:)`` for the catalog: the same checks, returning the catalog revision read with the session.
    func authenticateForCatalog(_ request: Request) async throws -> Int64 {
        let claims = try verifiedAccessClaims(request)
        guard let revision = try await storage.catalogRevision(ifFamilyIsActive: claims.sid) else { throw Self.sessionEnded }
        return revision
    }

    private func verifiedAccessClaims(_ request: Request) throws -> AccessClaims {
        guard let token = RequestReader.bearerToken(request) else { throw APIError.unauthorized() }
        return try tokens.verifyAccessToken(token, now: environment.now())
    }

    private static var sessionEnded: APIError { APIError.unauthorized("the session has ended") }

    func requireAdmin(_ request: Request) async throws -> String {
        let caller = try await authenticate(request)
        guard caller.role == .admin else { throw APIError(.forbidden, .forbidden, "this needs an administrator") }
        return caller.userId
    }

    /// An administrator, or a user granted the right to publish `appId` (any app when `nil`: uploading
    /// blobs, which belong to no app until a release names them); 403 otherwise.
    func requirePublisher(_ request: Request, appId: String?) async throws -> String {
        let caller = try await authenticate(request)
        let allowed = try await caller.role == .admin ? true : storage.isPublisher(userId: caller.userId, appId: appId)
        guard allowed else {
            throw APIError(
                .forbidden, .forbidden,
                appId.map { "this needs an administrator or a publisher of \($0)" }
                    ?? "this needs an administrator or a publisher")
        }
        return caller.userId
    }

    func clientAddress(_ request: Request, context: ServerRequestContext) -> String {
        if configuration.trustForwardedFor {
            // NB: every header line, in order: a client can send its own line, which a proxy keeps in front of its entry.
            let entries = request.headers[values: .xForwardedFor].flatMap { $0.split(separator: ",") }
                .map { $0.trimmingCharacters(in: .whitespaces) }
            let hops = max(1, configuration.trustedProxyHops)
            if let chosen = entries.count >= hops ? entries[entries.count - hops] : entries.first, !chosen.isEmpty,
                chosen.utf8.count <= 64
            {
                return chosen
            }
        }
        return context.peerAddress ?? "unknown"
    }
}

extension HTTPField.Name {
    static let xForwardedFor = Self("X-Forwarded-For")!
}
