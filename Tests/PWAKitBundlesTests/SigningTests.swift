import Crypto
import Foundation
import PWAKitBundles
import Testing

@Suite("Signing")
struct SigningTests {
    static func release(_ key: SigningKey) throws -> SignedRelease {
        try SignedRelease.sign(ManifestCodingTests.manifest(), with: key)
    }

    @Test("a signature verifies only with a trusted key over the exact bytes")
    func verify() throws {
        let key = SigningKey.generate()
        let release = try Self.release(key)
        #expect(try release.verify(trustedKeys: [key.verifyingKey]).appId == "quiz")
        #expect(try release.bundleHash() == SHA256.hex(of: try release.manifestBytes()))

        let other = SigningKey.generate()
        #expect(throws: BundleError.self) { try release.verify(trustedKeys: [other.verifyingKey]) }

        var bytes = try release.manifestBytes()
        bytes.append(0x20)
        let padded = SignedRelease(manifest: bytes.base64EncodedString(), keyId: release.keyId, signature: release.signature)
        #expect { try padded.verify(trustedKeys: [key.verifyingKey]) } throws: { ($0 as? BundleError)?.code == .badSignature }

        let forgedId = SignedRelease(manifest: release.manifest, keyId: key.keyId, signature: try Self.release(other).signature)
        #expect { try forgedId.verify(trustedKeys: [key.verifyingKey]) } throws: { ($0 as? BundleError)?.field == "signature" }

        let shortSignature = SignedRelease(manifest: release.manifest, keyId: key.keyId, signature: "AAAA")
        #expect { try shortSignature.verify(trustedKeys: [key.verifyingKey]) } throws: {
            ($0 as? BundleError)?.field == "signature"
        }
        let notBase64 = SignedRelease(manifest: "%%%", keyId: key.keyId, signature: release.signature)
        #expect { try notBase64.verify(trustedKeys: [key.verifyingKey]) } throws: { ($0 as? BundleError)?.field == "manifest" }
    }

    @Test("rotation: any of several trusted keys verifies its own signatures")
    func rotation() throws {
        let old = SigningKey.generate()
        let new = SigningKey.generate()
        let trusted = [old.verifyingKey, new.verifyingKey]
        #expect(try Self.release(old).verify(trustedKeys: trusted).version == "1.2.3")
        #expect(try Self.release(new).verify(trustedKeys: trusted).version == "1.2.3")
        #expect(old.keyId != new.keyId)
        #expect(old.keyId.hasPrefix("ed25519-") && old.keyId.count == 24)
    }

    @Test("key files round-trip; inconsistent files are refused with the field")
    func keyFiles() throws {
        let key = SigningKey.generate()
        let data = try JSONEncoder().encode(key.file)
        #expect(try SigningKey(fileContents: data).keyId == key.keyId)

        var file = key.file
        file.publicKey = SigningKey.generate().verifyingKey.base64
        #expect { try SigningKey(fileContents: try JSONEncoder().encode(file)) } throws: {
            ($0 as? BundleError)?.field == "publicKey"
        }
        file = key.file
        file.algorithm = "rsa"
        #expect { try SigningKey(fileContents: try JSONEncoder().encode(file)) } throws: {
            ($0 as? BundleError)?.field == "algorithm"
        }
        file = key.file
        file.privateKey = "short"
        #expect { try SigningKey(fileContents: try JSONEncoder().encode(file)) } throws: {
            ($0 as? BundleError)?.field == "privateKey"
        }
        #expect { try SigningKey(fileContents: Data("{}".utf8)) } throws: { ($0 as? BundleError)?.code == .invalidKey }
        #expect { try VerifyingKey(base64: "AAAA") } throws: { ($0 as? BundleError)?.field == "publicKey" }
    }
}

@Suite("Bundle builder")
struct BundleBuilderTests {
    @Test("lists files with hashes and types, skips hidden files, refuses symlinks")
    func build() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("bundle-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try Data("<h1>x</h1>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("body{}".utf8).write(to: root.appendingPathComponent("assets/site.CSS"))
        try Data("secret".utf8).write(to: root.appendingPathComponent(".env"))
        let manifest = try BundleBuilder(root: root).manifest(
            appId: "demo", version: "1.0.0", channel: "stable", entry: "index.html")
        #expect(manifest.files.map(\.path) == ["assets/site.CSS", "index.html"])
        #expect(manifest.files[0].contentType == "text/css; charset=utf-8")
        #expect(manifest.files[1].sha256 == SHA256.hex(of: Data("<h1>x</h1>".utf8)))
        #expect(manifest.totalSize == 16)
        #expect(throws: BundleError.self) {
            try BundleBuilder(root: root).manifest(appId: "demo", version: "1.0.0", channel: "stable", entry: "missing.html")
        }
        try FileManager.default.createSymbolicLink(
            atPath: root.appendingPathComponent("link").path, withDestinationPath: "/etc/passwd")
        #expect { try BundleBuilder(root: root).files() } throws: { ($0 as? BundleError)?.field == "link" }
        #expect(throws: BundleError.self) { try BundleBuilder(root: root.appendingPathComponent("nope")).files() }
    }

    @Test("content types by extension")
    func contentTypes() {
        #expect(ContentTypes.forPath("a/b.JS") == "text/javascript; charset=utf-8")
        #expect(ContentTypes.forPath("font.woff2") == "font/woff2")
        #expect(ContentTypes.forPath("README") == "application/octet-stream")
        #expect(ContentTypes.forPath(".hidden") == "application/octet-stream")
    }
}
