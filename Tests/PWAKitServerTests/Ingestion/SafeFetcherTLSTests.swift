import Crypto
import Foundation
import NIOSSL
import PWAKitLinks
import SwiftASN1
import Synchronization
import Testing
import X509

@testable import PWAKitServer

/// `https` links: the fetcher connects to the address it checked and verifies the certificate
/// against the link's name (SNI and hostname check), with the trust roots it is given.
@Suite("Safe fetcher over TLS")
struct SafeFetcherTLSTests {
    /// A test authority and a certificate it issued for `names`, as NIOSSL takes them.
    struct Authority {
        let root: NIOSSLCertificate
        let leaf: NIOSSLCertificate
        let leafKey: NIOSSLPrivateKey

        init(names: [String]) throws {
            let now = Date()
            let caKey = P256.Signing.PrivateKey()
            let caName = try DistinguishedName { CommonName("PWAKit Test Authority") }
            let ca = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(caKey.publicKey), notValidBefore: now - 3600,
                notValidAfter: now + 3600, issuer: caName, subject: caName, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true))
                }, issuerPrivateKey: .init(caKey))
            let key = P256.Signing.PrivateKey()
            let leaf = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(key.publicKey), notValidBefore: now - 3600,
                notValidAfter: now + 3600, issuer: caName, subject: try DistinguishedName { CommonName(names[0]) },
                signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                    try ExtendedKeyUsage([.serverAuth])
                    SubjectAlternativeNames(names.map { .dnsName($0) })
                }, issuerPrivateKey: .init(caKey))
            func der(_ certificate: Certificate) throws -> [UInt8] {
                var serializer = DER.Serializer()
                try serializer.serialize(certificate)
                return serializer.serializedBytes
            }
            root = try NIOSSLCertificate(bytes: try der(ca), format: .der)
            self.leaf = try NIOSSLCertificate(bytes: try der(leaf), format: .der)
            leafKey = try NIOSSLPrivateKey(bytes: Array(key.derRepresentation), format: .der)
        }

        var serverContext: NIOSSLContext {
            get throws {
                try NIOSSLContext(
                    configuration: .makeServerConfiguration(
                        certificateChain: [.certificate(leaf)], privateKey: .privateKey(leafKey)))
            }
        }

        var trustingClient: TLSConfiguration {
            var configuration = TLSConfiguration.makeClientConfiguration()
            configuration.trustRoots = .certificates([root])
            return configuration
        }
    }

    @Test("an https page is fetched from the checked address with the name verified; a wrong name or an unknown authority fails")
    func https() async throws {
        let authority = try Authority(names: ["pages.test"])
        let served = Atomic(0)
        let site = CountingSite(tls: try authority.serverContext) { _ in
            served.add(1, ordering: .relaxed)
            return Array(SafeFetcherTests.ok("<title>Secure</title>").utf8)
        }
        try await site.start()
        let port = site.port
        let resolver = FixedResolver(["pages.test": [[127, 0, 0, 1]], "other.test": [[127, 0, 0, 1]]])
        let open: SafeFetcher.AddressCheck = { address, candidate in
            address == [127, 0, 0, 1] && candidate == port ? nil : "not the test site"
        }
        let trusting = SafeFetcher(resolver: resolver, tls: authority.trustingClient, check: open)
        let page = try await trusting.fetch(try CanonicalURL("https://pages.test:\(port)/page"))
        #expect(page.status == 200)
        #expect(String(decoding: page.body, as: UTF8.self) == "<title>Secure</title>")
        #expect(site.hosts.withLock { $0 } == ["pages.test:\(port)"], "the Host header names the link's host")

        // The certificate names pages.test, not other.test, though both resolve to the same address.
        let wrongName = try CanonicalURL("https://other.test:\(port)/page")
        do {
            _ = try await trusting.fetch(wrongName)
            Issue.record("a certificate for another name was accepted")
        } catch {
            #expect(error.code == .connectionFailed, "\(error)")
        }
        // The system's roots do not know the test authority.
        let untrusting = SafeFetcher(resolver: resolver, check: open)
        let link = try CanonicalURL("https://pages.test:\(port)/page")
        do {
            _ = try await untrusting.fetch(link)
            Issue.record("a certificate of an unknown authority was accepted")
        } catch {
            #expect(error.code == .connectionFailed, "\(error)")
        }
        #expect(served.load(ordering: .relaxed) == 1, "only the verified connection got an answer")
        await site.stop()
    }

    @Test("a pinned https name is verified the same way")
    func pinnedHTTPS() async throws {
        let authority = try Authority(names: ["pages.test"])
        let site = CountingSite(tls: try authority.serverContext) { _ in Array(SafeFetcherTests.ok("pinned").utf8) }
        try await site.start()
        let fetcher = SafeFetcher.pinning(
            [try LinkPin("pages.test:\(site.port):127.0.0.1")], resolver: FixedResolver([:]), tls: authority.trustingClient)
        let page = try await fetcher.fetch(try CanonicalURL("https://pages.test:\(site.port)/"))
        #expect(String(decoding: page.body, as: UTF8.self) == "pinned")
        await site.stop()
    }
}
