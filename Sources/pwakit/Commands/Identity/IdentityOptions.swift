import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitIdentity
import PWAKitLinuxHost
import PWAKitModules

#if canImport(Glibc)
    import Glibc
#endif

/// Where a device's identity lives and which server it talks to: shared by every `pwakit identity` command.
struct IdentityOptions: ParsableArguments {
    @Option(help: "The platform server's base URL.")
    var server = "http://127.0.0.1:8080"

    @Option(
        help:
            "Where this device's identity is kept, sealed (AES-256-GCM) with a key beside it (default: $XDG_DATA_HOME/pwakit/identity)."
    )
    var store: String?

    @Flag(help: "Use a simulated biometric sensor that always succeeds (Linux has no platform one here).")
    var simulatedBiometrics = false

    func validate() throws {
        guard LauncherCommand.isServerURL(server) else {
            throw ValidationError("--server must be an http or https URL, e.g. http://127.0.0.1:8080")
        }
    }

    var storeDirectory: URL {
        if let store { return URL(fileURLWithPath: store, isDirectory: true) }
        let environment = ProcessInfo.processInfo.environment
        let base =
            environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share", isDirectory: true)
        return base.appendingPathComponent("pwakit/identity", isDirectory: true)
    }

    /// The sealed store in ``storeDirectory`` (created owner-only).
    func secureStore() throws -> any SecureStore {
        let directory = storeDirectory
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return EncryptedFileStore(keyFile: directory.appendingPathComponent("store.key")) { _ in directory }
    }

    var api: APIClient { APIClient(baseURL: URL(string: server)!) }

    func client() throws -> IdentityClient {
        IdentityClient(
            api: api, keychain: IdentityKeychain(store: try secureStore()),
            biometrics: simulatedBiometrics ? SimulatedDevice() : nil)
    }

    /// `--pin` when given, else `PWAKIT_PIN`, else asked for on the terminal (not echoed).
    static func pin(_ given: String?, prompt: String = "PIN: ") throws -> String {
        if let given { return given }
        if let pin = ProcessInfo.processInfo.environment["PWAKIT_PIN"], !pin.isEmpty { return pin }
        guard isatty(STDIN_FILENO) == 1, let typed = getpass(prompt) else {
            throw CommandFailure("no PIN: give --pin, set PWAKIT_PIN, or run in a terminal")
        }
        return String(cString: typed)
    }
}
