import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitCore
import PWAKitErrors
import PWAKitMiniApps
import PWAKitModules
import PWAKitShare

/// `pwakit share <url> [--note …]`: what a share extension does — the share is kept in the app
/// group's outbox at once, and sent to the platform server when one is given and reachable.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a link: keep it in the app group's outbox, and send queued shares to the platform server.",
        discussion: """
            The share is checked (an http or https URL without credentials; a note of at most \
            2000 bytes) and written to the outbox before anything is sent, so it survives the \
            server being down and the process being killed. With --server and --email (password: \
            PWAKIT_PASSWORD) every queued share is sent, oldest first, and deleted once the server \
            answers with its post; sending one again gives the same post. A share the server \
            refuses moves to rejected/ with the reason. --list shows what waits. Without a URL, \
            --server sends what is queued.

            Exit status: 0 queued or sent (a share kept for later included); 1 a URL or note that \
            cannot be shared, or a share the server refused; 2 the configuration or outbox cannot \
            be read; 64 a bad flag.
            """)

    @Argument(help: "The link to share (http or https).")
    var url: String?

    @Option(help: "What to do with it (kept as the post's instructions).")
    var note: String?

    @Option(help: "A pwa-config.json (or its directory): the outbox is shares/ in its app group's folder.")
    var config: String?

    @Option(help: "The outbox directory (default: $XDG_DATA_HOME/pwakit/shares).")
    var outbox: String?

    @Option(help: "The platform server's base URL; with it, queued shares are sent.")
    var server: String?

    @Option(help: "The account's email address (password: PWAKIT_PASSWORD).")
    var email: String?

    @Flag(help: "List the shares waiting and those the server refused.")
    var list = false

    func validate() throws {
        if config != nil, outbox != nil { throw ValidationError("give --config or --outbox, not both") }
        if let server, !LauncherCommand.isServerURL(server) {
            throw ValidationError("--server must be an http or https URL, e.g. http://127.0.0.1:8080")
        }
        if server != nil, email == nil { throw ValidationError("--server needs --email") }
        if url == nil, server == nil, !list { throw ValidationError("give a URL to share, --server to send, or --list") }
    }

    func directory() throws -> URL { try Self.outboxDirectory(config: config, outbox: outbox) }

    /// The outbox `--outbox` names, or `shares/` in the app group of `--config`'s app, or the default
    /// one; `pwakit launcher` sends from the same folder under the same options.
    static func outboxDirectory(config: String?, outbox: String?) throws -> URL {
        if let outbox { return URL(fileURLWithPath: outbox, isDirectory: true) }
        if let config {
            let file = try ConfigurationLoader.locate(URL(fileURLWithPath: config))
            let identifiers = AppIdentifiers(try ConfigurationLoader.load(from: file))
            return AppGroupFolder.url(for: identifiers).appendingPathComponent("shares", isDirectory: true)
        }
        return AppGroupFolder.dataHome().appendingPathComponent("pwakit/shares", isDirectory: true)
    }

    func run() async throws {
        try await CommandFailure.run {
            let box: ShareOutbox
            do {
                box = try ShareOutbox(directory: try directory())
            } catch let failure as CommandFailure {
                throw failure
            } catch let error as any PWAKitErrors.CodedError {
                throw CommandFailure(error)
            } catch {
                throw CommandFailure(status: .unreadable, code: "share.outbox", message: "the outbox cannot be opened: \(error)")
            }
            if list {
                for share in try box.pending() { Console.write("waiting \(share.id) \(share.url)") }
                for (id, reason) in try box.rejected() { Console.write("rejected \(id): \(reason)") }
                return
            }
            if let url {
                let share = try box.enqueue(url: url, note: note)
                Console.write("queued \(share.id) \(share.url)")
            }
            guard let server, let email, let base = URL(string: server) else { return }
            guard let password = ProcessInfo.processInfo.environment["PWAKIT_PASSWORD"] else {
                throw CommandFailure("no password: set PWAKIT_PASSWORD")
            }
            let account = AccountSession(client: APIClient(baseURL: base), vault: InMemorySecureStore())
            do {
                try await account.signIn(email: email, password: password)
            } catch let error as APIClientError where error.isTransient {
                Console.write("kept for later: the server cannot be reached (\(error.message))")
                return
            }
            let client = APIClient(baseURL: base)
            let sender = ShareSender(outbox: box) { request in
                try await account.authorized { token in try await client.createPost(request, accessToken: token) }
            }
            var refused = 0
            for outcome in try await sender.sendPending() {
                switch outcome {
                case .posted(let share, let post, let created):
                    Console.write(
                        "posted \(share.id) as post \(post.id) (\(created ? "new" : "already shared")) \(post.canonicalUrl)")
                case .kept(let share, let reason):
                    Console.write("kept \(share.id) for later: \(reason)")
                case .rejected(let share, let reason):
                    refused += 1
                    Console.writeError("rejected \(share.id): \(reason)")
                }
            }
            if refused > 0 {
                throw CommandFailure(
                    status: .invalid, code: "share.rejected", message: "\(refused) share(s) refused by the server")
            }
        }
    }
}
