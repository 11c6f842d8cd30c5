import Crypto
import Foundation
import Testing

@testable import PWAKitServer

/// The token-signing key is stored wrapped; without the wrapping key the database signs nothing.
@Suite("Token-signing key wrapping")
struct KeyWrappingTests {
    static func open(_ path: String, key: Data?) async throws -> PlatformServer {
        var configuration = ServerConfiguration()
        configuration.passwordHashing = ScryptParameters(n: 16, r: 8, p: 1)
        configuration.keyWrappingKey = key
        let blobs = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-wrap-blobs-\(UUID().uuidString)")
        let storage = try await SQLStorage.sqlite(path: path)
        do {
            return try await PlatformServer.make(
                storage: storage, blobs: try FileBlobStore(root: blobs), configuration: configuration)
        } catch {
            try? await storage.close()
            throw error
        }
    }

    static func storedKey(_ server: PlatformServer) async throws -> String {
        try await server.storage.serverKey(purpose: "token-signing", candidate: "unused", now: Date())
    }

    @Test("stored wrapped; reopened with the same key signs alike; without it or with another, a clear refusal")
    func wrapped() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-wrap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let key = Data((0..<32).map { UInt8($0) })
        let first = try await Self.open(path, key: key)
        let stored = try await Self.storedKey(first)
        #expect(stored.hasPrefix("wrapped-v1:"))
        let jwks = first.tokens.keyId
        try await first.storage.close()

        let again = try await Self.open(path, key: key)
        #expect(again.tokens.keyId == jwks)
        try await again.storage.close()

        await #expect {
            _ = try await Self.open(path, key: nil)
        } throws: { "\($0)".contains("wrapped") && "\($0)".contains("PWAKIT_KEY_WRAPPING_KEY") }
        await #expect {
            _ = try await Self.open(path, key: Data(repeating: 1, count: 32))
        } throws: { "\($0)".contains("does not open") }
    }

    @Test("a key stored in the clear is wrapped in place once a wrapping key is configured, and stays the same key")
    func upgrade() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-wrap-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let clear = try await Self.open(path, key: nil)
        let plain = try await Self.storedKey(clear)
        #expect(Data(base64Encoded: plain)?.count == 32)
        let jwks = clear.tokens.keyId
        try await clear.storage.close()

        let key = Data(repeating: 9, count: 32)
        let wrapped = try await Self.open(path, key: key)
        #expect(try await Self.storedKey(wrapped).hasPrefix("wrapped-v1:"))
        #expect(wrapped.tokens.keyId == jwks)
        #expect(!(try await Self.storedKey(wrapped).contains(plain)))
        try await wrapped.storage.close()
    }

    @Test("key files: created 0600 once, refused when others may read them or they hold no 32-byte key")
    func keyFiles() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-keyfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("token-wrapping.key").path
        let created = try KeyWrappingKeyFile.loadOrCreate(path: path)
        #expect(created.count == 32)
        #expect(try KeyWrappingKeyFile.loadOrCreate(path: path) == created)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o600)
        chmod(path, 0o644)
        #expect { try KeyWrappingKeyFile.load(path: path) } throws: { "\($0)".contains("chmod 600") }
        chmod(path, 0o600)
        try Data("too short".utf8).write(to: URL(fileURLWithPath: path))
        chmod(path, 0o600)
        #expect { try KeyWrappingKeyFile.load(path: path) } throws: { "\($0)".contains("32 bytes") }
        #expect { try KeyWrappingKeyFile.load(path: path + "-missing") } throws: { "\($0)".contains("cannot be read") }
        #expect { try KeyWrappingKeyFile.decode(String(repeating: "A", count: 10_000), source: "env") } throws: { _ in true }
    }
}
