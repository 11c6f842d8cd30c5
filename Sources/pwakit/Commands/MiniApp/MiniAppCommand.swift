import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitMiniApps
import PWAKitModules

/// `pwakit miniapp`: the device side of the mini-app platform from the command line: the
/// catalog, installing and updating signed releases into a store, its state and its upkeep.
struct MiniAppCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "miniapp",
        abstract: "List, install and maintain mini-apps in a local store, as a host does.",
        subcommands: [
            MiniAppListCommand.self, MiniAppInstallCommand.self, MiniAppOpenCommand.self, MiniAppStatusCommand.self,
            MiniAppClearCommand.self,
        ]
    )
}

/// Where the store is.
struct StoreOptions: ParsableArguments {
    @Option(help: "The mini-app store directory (default: $XDG_DATA_HOME/pwakit/miniapps or ~/.local/share/pwakit/miniapps).")
    var store: String?

    func open() throws -> BundleStore {
        try BundleStore(root: URL(fileURLWithPath: store ?? Self.defaultPath, isDirectory: true))
    }

    static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/pwakit/miniapps"
    }
}

/// How to reach the server and who signs in. The session lives for one command: nothing is
/// written outside the store.
struct AccountOptions: ParsableArguments {
    @Option(help: "The platform server's base URL, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "The account's email address.")
    var email: String

    @Option(help: "The password (default: the PWAKIT_PASSWORD environment variable).")
    var password: String?

    func validate() throws {
        guard let url = URL(string: server), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw ValidationError("--server must be an http or https URL, e.g. http://127.0.0.1:8080")
        }
    }

    func signIn() async throws -> AccountSession {
        guard let password = password ?? ProcessInfo.processInfo.environment["PWAKIT_PASSWORD"] else {
            throw CommandFailure("no password: pass --password or set PWAKIT_PASSWORD")
        }
        guard let url = URL(string: server) else { throw CommandFailure("--server is not a URL") }
        let account = AccountSession(client: APIClient(baseURL: url), vault: InMemorySecureStore())
        try await account.signIn(email: email, password: password)
        return account
    }
}
