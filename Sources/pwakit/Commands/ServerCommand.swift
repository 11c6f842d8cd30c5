import ArgumentParser
import Foundation
import Logging
import PWAKitServer
import ServiceLifecycle

#if OTel
    import PWAKitOTel
#endif

/// `pwakit server`: runs the platform server; zero set-up on SQLite under `--data-dir`.
struct ServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "server",
        abstract: "Run the platform server (identity, catalog, releases, bundle delivery, launch codes)."
    )

    @OptionGroup var database: DatabaseOptions

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free port).")
    var port = 8080

    @Option(
        help: ArgumentHelp(
            "File with the key that wraps the token-signing key in the database (base64 of 32 bytes, mode 0600).",
            discussion:
                "Also PWAKIT_KEY_WRAPPING_KEY (the base64 itself). Default: DATA-DIR/token-wrapping.key, created on first start; replicas of one PostgreSQL database must share it."
        ))
    var keyFile: String?

    @Flag(help: "Write one line per answered request to standard output, in the Common Log Format.")
    var accessLog = false

    @Option(help: "Seconds after a refresh token's use in which the same address may retry it (0: never).")
    var refreshGraceSeconds = 10

    @Option(help: "JSON file with users and apps to create at start (idempotent).")
    var seed: String?

    @Flag(help: "Take the client address from X-Forwarded-For (only behind a trusted proxy).")
    var trustForwardedFor = false

    @Option(
        name: .customLong("proxy-hops"),
        help:
            "With --trust-forwarded-for: how many trusted proxies append to X-Forwarded-For (the client is that many entries from the right)."
    )
    var proxyHops = 1

    @Option(
        name: .customLong("apple-app-site-association"),
        help: "The apple-app-site-association JSON (from `pwakit sync`) to answer at /.well-known/apple-app-site-association.")
    var siteAssociation: String?

    @Option(help: "Deliver push notifications by appending them, one JSON line each, to this file (development).")
    var pushLog: String?

    @Option(
        name: .customLong("otlp-endpoint"),
        help:
            "An OpenTelemetry collector's OTLP/HTTP base URL (e.g. http://127.0.0.1:4318): each request is traced and metrics exported there (builds with the OTel trait)."
    )
    var otlpEndpoint: String?

    @Option(name: .customLong("otlp-encoding"), help: "protobuf (the OTLP default) or json.")
    var otlpEncoding = "protobuf"

    @Option(
        help:
            "Posts ingested at once (fetching the page, building its preview); 0 runs none here (a `pwakit worker` may)."
    )
    var workers = 2

    @OptionGroup var links: LinkFetchOptions

    @Option(help: "The APNs provider key (.p8 file); with --apns-key-id, --apns-team-id and --apns-topic, pushes go to APNs.")
    var apnsKey: String?

    @Option(help: "The APNs key's id.")
    var apnsKeyId: String?

    @Option(help: "The team id the APNs key belongs to.")
    var apnsTeamId: String?

    @Option(help: "The app's bundle id (the apns-topic).")
    var apnsTopic: String?

    @Option(
        help:
            "The origin people reach this server at (https://id.example.com): sign-in QR codes name it (pages of other origins cannot ask for one) and mailed sign-in links point at it."
    )
    var publicUrl: String?

    @Option(
        help:
            "Where sign-in links are mailed from: smtp://host:25 in the clear, smtps://user:password@host:465 over TLS, or smtp+starttls://user:password@host:587 (STARTTLS, required). Without it, POST /v1/auth/magic-link answers 503."
    )
    var smtpUrl: String?

    @Option(help: "The CA certificates (PEM) the SMTP server's certificate must chain to, instead of the system's.")
    var smtpCaFile: String?

    @Option(help: "The sender address of the server's mail.")
    var mailFrom = "no-reply@pwakit.invalid"

    @Option(
        help:
            "What a mailed sign-in link points to before its ?token= (the app's universal link); by default the server's own /v1/auth/magic-link/open page."
    )
    var magicLinkBase: String?

    @Option(help: ArgumentHelp("scrypt cost N for new password hashes (a power of two).", visibility: .hidden))
    var passwordCost = ScryptParameters.standard.n

    /// The origin a browser would send for `text` (lower-case scheme and host, no default port), or nil
    /// when it is not an http(s) origin (a path, query, fragment or user part).
    static func origin(_ text: String) -> String? {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), let host = components.host?.lowercased(), !host.isEmpty,
            components.user == nil, components.password == nil, components.query == nil, components.fragment == nil,
            components.path.isEmpty || components.path == "/"
        else {
            return nil
        }
        let defaultPort = scheme == "https" ? 443 : 80
        let port = components.port.flatMap { $0 == defaultPort ? nil : $0 }
        return "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }

    func validate() throws {
        guard (0...64).contains(workers) else { throw ValidationError("--workers must be between 0 and 64") }
        if smtpCaFile != nil, smtpUrl == nil { throw ValidationError("--smtp-ca-file needs --smtp-url") }
        if let smtpUrl {
            do { _ = try SMTPMailer(url: smtpUrl, caFile: smtpCaFile) } catch let error as MailError {
                throw ValidationError(error.message)
            }
            guard publicUrl != nil || magicLinkBase != nil else {
                throw ValidationError(
                    "--smtp-url needs --public-url (or --magic-link-base): sign-in links are never built from a request's headers"
                )
            }
        }
        if let publicUrl, Self.origin(publicUrl) == nil {
            throw ValidationError("--public-url must be an origin like https://id.example.com (no path, query or user)")
        }
        guard SMTPMailer.isPlainAddress(mailFrom) else {
            throw ValidationError("--mail-from must be an address like a@example.com")
        }
        if let magicLinkBase {
            guard let url = URL(string: magicLinkBase), url.scheme != nil, url.host != nil || url.scheme != "https" else {
                throw ValidationError("--magic-link-base must be a URL, e.g. https://app.example.com/auth/magic")
            }
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        if let otlpEndpoint {
            guard let url = URL(string: otlpEndpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ValidationError("--otlp-endpoint must be an http or https URL, e.g. http://127.0.0.1:4318")
            }
        }
        guard ["protobuf", "json"].contains(otlpEncoding) else {
            throw ValidationError("--otlp-encoding must be protobuf or json")
        }
        guard (1...16).contains(proxyHops) else { throw ValidationError("--proxy-hops must be between 1 and 16") }
        guard (0...300).contains(refreshGraceSeconds) else {
            throw ValidationError("--refresh-grace-seconds must be between 0 and 300")
        }
        guard passwordCost >= 2, passwordCost & (passwordCost - 1) == 0, passwordCost <= 1 << 20 else {
            throw ValidationError("--password-cost must be a power of two between 2 and 1048576")
        }
    }

    func run() async throws {
        do {
            try await start()
        } catch let error as ExitCode {
            throw error
        } catch {
            ServerOutput.standardError("error: \(error)")
            throw ExitCode(1)
        }
    }

    private func start() async throws {
        var logger = Logger(label: "pwakit.server")
        logger.logLevel = .notice
        let environment = ProcessInfo.processInfo.environment
        let dataURL = database.dataURL
        try database.prepareDataDirectory()
        let wrappingKey = try keyWrappingKey(environment: environment, dataURL: dataURL)
        let storage = try await database.openStorage(environment: environment, logger: logger)
        do {
            try await serve(storage: storage, dataURL: dataURL, wrappingKey: wrappingKey, logger: logger)
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
    }

    private func keyWrappingKey(environment: [String: String], dataURL: URL) throws -> Data {
        if let keyFile { return try KeyWrappingKeyFile.load(path: keyFile) }
        if let text = environment["PWAKIT_KEY_WRAPPING_KEY"], !text.isEmpty {
            return try KeyWrappingKeyFile.decode(text, source: "PWAKIT_KEY_WRAPPING_KEY")
        }
        return try KeyWrappingKeyFile.loadOrCreate(path: dataURL.appendingPathComponent("token-wrapping.key").path)
    }

    /// The push sender the options name: APNs, a local file, or none.
    func pushSender() throws -> (any PushSender)? {
        let apns = [apnsKey, apnsKeyId, apnsTeamId, apnsTopic]
        if apns.contains(where: { $0 != nil }) {
            guard let apnsKey, let apnsKeyId, let apnsTeamId, let apnsTopic else {
                throw ValidationError("--apns-key, --apns-key-id, --apns-team-id and --apns-topic go together")
            }
            let pem: String
            do {
                pem = try String(contentsOfFile: apnsKey, encoding: .utf8)
            } catch {
                throw ValidationError("--apns-key: \(apnsKey) cannot be read")
            }
            do {
                return APNsSender(
                    credentials: try APNsRequest.Credentials(p8: pem, keyId: apnsKeyId, teamId: apnsTeamId, topic: apnsTopic))
            } catch {
                throw ValidationError("--apns-key: \(apnsKey) is not a PEM P-256 private key (.p8)")
            }
        }
        return pushLog.map { LocalPushSender(file: URL(fileURLWithPath: $0)) }
    }

    /// With `--otlp-endpoint`: tracing and metrics bootstrapped to export there, and the exporter to run.
    func observabilityServices() throws -> [any Service] {
        guard let otlpEndpoint else { return [] }
        #if OTel
            let encoding: OTLPExport.Encoding = otlpEncoding == "json" ? .json : .protobuf
            return [try OTLPExport.bootstrap(collector: otlpEndpoint, serviceName: "pwakit-server", encoding: encoding)]
        #else
            throw ValidationError(
                "--otlp-endpoint \(otlpEndpoint): this pwakit was built without OpenTelemetry (swift build --traits OTel)")
        #endif
    }

    /// The `--apple-app-site-association` file: a JSON object of at most 128 KiB (Apple's limit).
    func siteAssociationDocument() throws -> Data? {
        guard let siteAssociation else { return nil }
        guard let data = FileManager.default.contents(atPath: siteAssociation) else {
            throw ValidationError("--apple-app-site-association: \(siteAssociation) cannot be read")
        }
        guard data.count <= 128 * 1024 else {
            throw ValidationError("--apple-app-site-association: \(siteAssociation) is larger than 128 KiB, Apple's limit")
        }
        guard (try? JSONSerialization.jsonObject(with: data)) is [String: Any] else {
            throw ValidationError("--apple-app-site-association: \(siteAssociation) is not a JSON object")
        }
        return data
    }

    private func serve(storage: SQLStorage, dataURL: URL, wrappingKey: Data, logger: Logger) async throws {
        var configuration = ServerConfiguration()
        configuration.keyWrappingKey = wrappingKey
        configuration.refreshReuseGrace = TimeInterval(refreshGraceSeconds)
        if accessLog { configuration.accessLog = .standardOutput }
        configuration.trustForwardedFor = trustForwardedFor
        configuration.trustedProxyHops = proxyHops
        configuration.passwordHashing.n = passwordCost
        configuration.pushSender = try pushSender()
        if let smtpUrl {
            do { configuration.mailer = try SMTPMailer(url: smtpUrl, caFile: smtpCaFile) } catch let error as MailError {
                throw ValidationError(error.message)
            }
        }
        configuration.mailFrom = mailFrom
        configuration.publicOrigin = publicUrl.flatMap(Self.origin)
        configuration.magicLinkBase = magicLinkBase
        configuration.siteAssociation = try siteAssociationDocument()
        configuration.ingestionWorkers = workers
        configuration.ingestionLease = .seconds(links.leaseSeconds)
        configuration.linkFetcher = try links.fetcher()
        let services = try observabilityServices()
        configuration.tracing = !services.isEmpty
        let server = try await PlatformServer.make(
            storage: storage, blobs: try database.blobStore(),
            configuration: configuration)
        if let seed {
            for line in try await server.apply(ServerSeed.load(contentsOf: URL(fileURLWithPath: seed))) {
                ServerOutput.standardError("seeded \(line)")
            }
        }
        let engine = try await database.engineDescription(storage)
        let host = self.host
        try await server.run(host: host, port: port, logger: logger, services: services) { boundPort in
            ServerOutput.standardOutput("PWAKit server listening on http://\(host):\(boundPort) (\(engine))")
        }
        ServerOutput.standardOutput("PWAKit server stopped")
    }
}

/// Unbuffered line output, so a supervising process sees the listening line at once.
enum ServerOutput {
    static func standardOutput(_ line: String) { StandardStreams.writeLine(line, to: 1) }
    static func standardError(_ line: String) { StandardStreams.writeLine(line, to: 2) }
}

/// A reason the server cannot start, said plainly.
struct ServerStartError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
