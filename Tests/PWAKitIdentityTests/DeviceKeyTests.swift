import Crypto
import Foundation
import PWAKitAPI
import PWAKitEncoding
import PWAKitIdentity
import Testing

@testable import PWAKitServer

@Suite("Device keys: P-256 (as the Secure Enclave makes them) behind the same protocol as Ed25519")
struct DeviceKeyTests {
    static let target = SignedRequest.target
    static let body = SignedRequest.body

    @Test("a P-256 device key enrols, signs every request, and its proofs meet the same checks", arguments: Engine.available)
    func p256(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (user, tokens) = try await live.account()
            var client = live.deviceClient()
            client.deviceKeys = SoftwareDeviceKeys(.p256)
            try await client.enrol(name: "enclave phone", pin: "27491", user: user, accessToken: tokens.accessToken)
            let identity = try #require(try await client.identity())
            #expect(identity.deviceKeyAlgorithm == .p256)
            let record = try #require(try await live.server.storage.enrolledDevice(id: identity.deviceId))
            #expect(Base64URL.decode(record.deviceKey)?.count == 65)
            // Device-signed calls and person-proving calls work as with Ed25519.
            #expect(try await client.device().id == identity.deviceId)
            #expect(try await client.signIn(.pin("27491")).user.id == user.id)
            let created = try APIClient.decode(
                CreatedTransactionResponse.self, from: try await live.createTransaction(email: user.email).body)
            let details = try await client.transaction(id: created.id)
            #expect(try await client.approve(details, typedNumber: created.number, check: .pin("27491")).status == "approved")

            let verifier = live.server.mobileIdentity.proofs
            let headers = try await client.proofHeaders(
                method: "POST", target: Self.target, body: Self.body, identity: identity, person: nil)
            let header = try #require(headers[DeviceProof.headerName])
            for change in SignedRequest(header: header).changes {
                #expect(await change.isRefused(by: verifier), "\(change.label)")
            }
            _ = try await verifier.verify(header: header, method: "POST", target: Self.target, body: Self.body)
            var accepted = 0
            for _ in 0..<(engine == .sqlite ? 2_000 : 500) where !(await SignedRequest(header: header).isRefused(by: verifier)) {
                accepted += 1
            }
            #expect(accepted == 0)
        }
    }

    @Test("a device key that is not a P-256 point, is compressed, or has another length is refused naming deviceKey")
    func malformedKeys() async throws {
        try await LiveIdentityServer.run { live in
            let (user, tokens) = try await live.account()
            let pin = Curve25519.Signing.PrivateKey()
            let pinKey = Base64URL.encode(pin.publicKey.rawRepresentation)
            let device = P256.Signing.PrivateKey()
            var notOnCurve = [UInt8](device.publicKey.x963Representation)
            notOnCurve[64] ^= 0x01
            var wrongPrefix = [UInt8](device.publicKey.x963Representation)
            wrongPrefix[0] = 0x05
            let keys: [[UInt8]] = [
                notOnCurve, wrongPrefix, [UInt8](device.publicKey.compressedRepresentation), [UInt8](repeating: 4, count: 64),
                [0x04] + [UInt8](repeating: 0, count: 64), [UInt8](repeating: 0xFF, count: 66),
            ]
            for key in keys {
                let text = Base64URL.encode(key)
                let statement = IdentityStatement.enrolment(userId: user.id, deviceKey: text, pinKey: pinKey)
                let request = EnrolDeviceRequest(
                    name: "p", deviceKey: text, pinKey: pinKey,
                    deviceSignature: Base64URL.encode(try device.signature(for: statement).rawRepresentation),
                    pinSignature: Base64URL.encode(try pin.signature(for: statement)))
                let response = try await live.api.exchange(
                    "POST", "/v1/identity/devices", body: try APIClient.encode(request), credential: .bearer(tokens.accessToken))
                #expect(response.status == 400, "\(key.count) bytes")
                #expect(APIClient.error(from: response).field == "deviceKey", "\(key.count) bytes")
            }
            // A good point whose signature is Ed25519's, or is over another statement, does not enrol.
            let text = Base64URL.encode(device.publicKey.x963Representation)
            let statement = IdentityStatement.enrolment(userId: user.id, deviceKey: text, pinKey: pinKey)
            for signature in [
                Base64URL.encode(try pin.signature(for: statement)),
                Base64URL.encode(try device.signature(for: Data("other".utf8)).rawRepresentation),
            ] {
                let request = EnrolDeviceRequest(
                    name: "p", deviceKey: text, pinKey: pinKey, deviceSignature: signature,
                    pinSignature: Base64URL.encode(try pin.signature(for: statement)))
                let response = try await live.api.exchange(
                    "POST", "/v1/identity/devices", body: try APIClient.encode(request), credential: .bearer(tokens.accessToken))
                #expect(response.status == 400)
                #expect(APIClient.error(from: response).field == "deviceSignature")
            }
        }
    }

    @Test("a record made before P-256 keys (no algorithm) still signs with its Ed25519 key, whatever the client's store")
    func recordsWithoutAnAlgorithm() async throws {
        try await LiveIdentityServer.run { live in
            var (client, user, _) = try await live.enrolled()
            var identity = try #require(try await client.identity())
            #expect(identity.deviceKeyAlgorithm == .ed25519)
            identity.deviceKeyAlgorithm = nil
            try await client.keychain.save(identity)
            client.deviceKeys = SoftwareDeviceKeys(.p256)
            #expect(try await client.device().id == identity.deviceId)
            #expect(try await client.signIn(.pin("27491")).user.id == user.id)
            // A record whose key lives in another store (an enclave's handle) is never read as a software key.
            identity.deviceKeyStore = "secure-enclave"
            try await client.keychain.save(identity)
            await #expect(throws: IdentityError.self) { try await client.device() }
        }
    }
}
