import Crypto
public import Foundation
import PWAKitCore
import PWAKitFiles
public import PWAKitModules

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A ``SecureStore`` that seals each app's secrets into one AES-256-GCM file: the store used
/// when no Secret Service is running.
///
/// The master key is 32 random bytes in ``keyFile`` (created owner-only on first use); each
/// app seals with its own key derived from it (HKDF-SHA256, the bundle id as context), and
/// the bundle id is also authenticated with the data, so one app's file cannot be read as
/// another's. What this protects against, exactly: a copy of the data directory alone (a
/// backup, a synced folder, a bug report) does not reveal the secrets, and any change to a
/// sealed file is detected. It does not protect against anything that can read files as
/// this user — every program they run can read the key file too — nor against root; only a
/// keyring unlocked by the user's password (the Secret Service) does that.
public actor EncryptedFileStore: SecureStore {
    /// The file holding the master key.
    public let keyFile: URL
    private let directory: @Sendable (_ app: String) throws -> URL
    private var masterKey: SymmetricKey?
    private var cache: [String: [String: String]] = [:]

    /// The sealed file's name inside an app's data directory.
    public static let fileName = "secure-storage.sealed"
    static let magic = Data("PWAKIT-SEALED-1\n".utf8)

    /// A store keyed by `keyFile` that keeps each app's secrets in `directory(app)`.
    public init(keyFile: URL, directory: @escaping @Sendable (_ app: String) throws -> URL) {
        self.keyFile = keyFile
        self.directory = directory
    }

    /// `encrypted-file`, the key's location and what it protects against.
    public nonisolated var backend: String {
        "encrypted-file (AES-256-GCM, key in \(keyFile.path), readable only by this user: protects a copy of the "
            + "data directory and detects tampering, not against programs running as this user)"
    }

    /// Stores `value` under `key` for `app`.
    public func set(_ value: String, for key: String, app: String) throws {
        var entries = try load(app)
        entries[key] = value
        try save(entries, app: app)
    }

    /// The value under `key` for `app`.
    public func value(for key: String, app: String) throws -> String? {
        try load(app)[key]
    }

    /// Removes `key` for `app`; whether it had a value.
    public func delete(_ key: String, app: String) throws -> Bool {
        var entries = try load(app)
        guard entries.removeValue(forKey: key) != nil else { return false }
        try save(entries, app: app)
        return true
    }

    // MARK: Sealing

    private func file(for app: String) throws(BridgeError) -> URL {
        do {
            return try directory(app).appendingPathComponent(Self.fileName)
        } catch {
            throw Self.unavailable("no data directory for \(app): \(error)")
        }
    }

    private func load(_ app: String) throws(BridgeError) -> [String: String] {
        if let cached = cache[app] { return cached }
        let url = try file(for: app)
        guard FileManager.default.fileExists(atPath: url.path) else {
            cache[app] = [:]
            return [:]
        }
        guard let sealed = FileManager.default.contents(atPath: url.path) else {
            throw Self.unavailable("cannot read \(url.path)")
        }
        guard let key = try key(create: false) else {
            throw Self.failed("\(url.path) exists but its key \(keyFile.path) is gone; the secrets cannot be recovered")
        }
        let entries = try Self.unseal(sealed, key: key, app: app, path: url.path)
        cache[app] = entries
        return entries
    }

    private func save(_ entries: [String: String], app: String) throws(BridgeError) {
        let url = try file(for: app)
        guard let key = try key(create: true) else { throw Self.unavailable("cannot create \(keyFile.path)") }
        let sealed = try Self.seal(entries, key: key, app: app)
        try Self.writeOwnerOnly(sealed, to: url)
        cache[app] = entries
    }

    static func seal(_ entries: [String: String], key: SymmetricKey, app: String) throws(BridgeError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        do {
            let plain = try encoder.encode(entries)
            let box = try AES.GCM.seal(plain, using: appKey(key, app: app), authenticating: context(app))
            guard let combined = box.combined else { throw failed("cannot seal") }
            return magic + combined
        } catch let error as BridgeError {
            throw error
        } catch {
            throw failed("cannot seal: \(error)")
        }
    }

    static func unseal(_ sealed: Data, key: SymmetricKey, app: String, path: String) throws(BridgeError) -> [String: String] {
        guard sealed.starts(with: magic) else { throw failed("\(path) is not a PWAKit sealed file") }
        do {
            let box = try AES.GCM.SealedBox(combined: sealed.dropFirst(magic.count))
            let plain = try AES.GCM.open(box, using: appKey(key, app: app), authenticating: context(app))
            return try JSONDecoder().decode([String: String].self, from: plain)
        } catch {
            throw failed("\(path) was altered, belongs to another app, or was sealed with another key")
        }
    }

    static func appKey(_ master: SymmetricKey, app: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master, salt: Data("pwakit-secure-storage-v1".utf8), info: Data(app.utf8), outputByteCount: 32)
    }

    static func context(_ app: String) -> Data { Data("pwakit-secure-storage-v1\u{0}\(app)".utf8) }

    // MARK: The key file

    /// The master key; created (owner-only, never replaced) when `create` and missing.
    private func key(create: Bool) throws(BridgeError) -> SymmetricKey? {
        if let masterKey { return masterKey }
        if let bytes = FileManager.default.contents(atPath: keyFile.path) {
            guard bytes.count == 32 else { throw Self.failed("\(keyFile.path) is not a 32-byte key") }
            masterKey = SymmetricKey(data: bytes)
            return masterKey
        }
        guard create else { return nil }
        let directory = keyFile.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Self.unavailable("cannot create \(directory.path): \(error.localizedDescription)")
        }
        let fresh = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        // NB: created exclusively, so two hosts starting at once never replace each other's key.
        do {
            guard try DurableFile.createExclusively(keyFile.path, with: Array(fresh), permissions: 0o600) else {
                return try key(create: false)
            }
        } catch {
            throw Self.unavailable("cannot create \(keyFile.path): \(error)")
        }
        masterKey = SymmetricKey(data: fresh)
        return masterKey
    }

    /// Replaces `url` with `data`, owner-only and crash-safely (``DurableFile/replace(_:with:permissions:)``):
    /// a reader sees the old file or the new one, never half of one.
    static func writeOwnerOnly(_ data: Data, to url: URL) throws(BridgeError) {
        let directory = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw unavailable("cannot create \(directory.path): \(error.localizedDescription)")
        }
        do {
            try DurableFile.replace(url.path, with: data, permissions: 0o600)
        } catch {
            throw unavailable("cannot write \(url.path): \(error)")
        }
    }

    static func failed(_ message: String) -> BridgeError {
        BridgeError(.module("secureStorage", "failed"), message)
    }

    static func unavailable(_ message: String) -> BridgeError {
        BridgeError(.module("secureStorage", "unavailable"), message)
    }
}
