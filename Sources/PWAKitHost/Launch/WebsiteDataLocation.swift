public import Foundation

/// Where one app keeps its website data (cookies, local storage, IndexedDB, caches): a
/// directory of its own keyed by its bundle id, so two apps never share storage.
public struct WebsiteDataLocation: Sendable, Hashable {
    /// The directory for persistent data (cookies, storage, IndexedDB).
    public var data: URL
    /// The directory for caches.
    public var cache: URL

    /// The directories for `bundleID` under `base` (or, without one, under
    /// `$XDG_DATA_HOME/pwakit` and `$XDG_CACHE_HOME/pwakit`, defaulting to
    /// `~/.local/share` and `~/.cache`).
    ///
    /// The bundle id becomes one path component; an id that could not be one (empty, `.`,
    /// `..`, a `/`, a NUL) is refused.
    public init(bundleID: String, base: URL? = nil, environment: [String: String] = ProcessInfo.processInfo.environment)
        throws(HostError)
    {
        guard Self.isUsableComponent(bundleID) else {
            throw HostError(.invalidArgument, "app.bundleId \"\(bundleID)\" cannot name a data directory")
        }
        if let base {
            data = base.appendingPathComponent(bundleID, isDirectory: true).appendingPathComponent("data")
            cache = base.appendingPathComponent(bundleID, isDirectory: true).appendingPathComponent("cache")
            return
        }
        let home =
            environment["HOME"].map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser
        func root(_ variable: String, _ fallback: String) -> URL {
            if let value = environment[variable], value.hasPrefix("/") { return URL(fileURLWithPath: value) }
            return home.appendingPathComponent(fallback, isDirectory: true)
        }
        data = root("XDG_DATA_HOME", ".local/share").appendingPathComponent("pwakit/\(bundleID)", isDirectory: true)
        cache = root("XDG_CACHE_HOME", ".cache").appendingPathComponent("pwakit/\(bundleID)", isDirectory: true)
    }

    static func isUsableComponent(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\0")
            && name.utf8.count <= 255
    }

    /// Creates both directories (owner-only permissions) if they do not exist.
    public func create() throws(HostError) {
        for directory in [data, cache] {
            do {
                try FileManager.default.createDirectory(
                    at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw HostError(.io, "cannot create \(directory.path): \(error.localizedDescription)")
            }
        }
    }
}
