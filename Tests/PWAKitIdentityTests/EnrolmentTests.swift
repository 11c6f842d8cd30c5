import Crypto
import Foundation
import PWAKitAPI
import PWAKitEncoding
import PWAKitIdentity
import PWAKitServer
import Testing

@Suite("Device enrolment and device sessions")
struct EnrolmentTests {
    @Test(
        "enrol, sign in with the PIN, call the API with the device's session; revoking the device ends it and wipes the device",
        arguments: Engine.available)
    func enrolAndRevoke(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (client, user, tokens) = try await live.enrolled()
            let device = try await client.device()
            #expect(device.authenticators == [.pin])
            #expect(device.pinAttemptsLeft == 3)
            #expect(device.pinVersion == 1)
            let session = try await client.signIn(.pin("27491"))
            #expect(session.user.id == user.id)
            #expect(try await live.api.me(accessToken: session.accessToken).id == user.id)
            let listed = try await live.api.call(
                "GET", "/v1/identity/devices", credential: .bearer(tokens.accessToken), as: [EnrolledDeviceResponse].self)
            #expect(listed.map(\.id) == [device.id])
            // The owner revokes the device from another session: the device's session ends at once.
            try await live.api.callExpectingNoContent(
                "DELETE", "/v1/identity/devices/\(device.id)", credential: .bearer(tokens.accessToken))
            await #expect(throws: APIClientError.self) { try await live.api.me(accessToken: session.accessToken) }
            // The password session that revoked it is not bound to the device and goes on.
            #expect(try await live.api.me(accessToken: tokens.accessToken).id == user.id)
            let error = await #expect(throws: IdentityError.self) { try await client.signIn(.pin("27491")) }
            #expect(error?.code == .deregistered)
            #expect(try await client.identity() == nil, "the deregistered device wipes its identity data")
        }
    }

    @Test("one device per account by default, also when ten enrol at once; another after revoking", arguments: Engine.available)
    func deviceLimit(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (user, tokens) = try await live.account()
            let outcomes = await withTaskGroup(of: String.self) { group in
                for _ in 0..<10 {
                    group.addTask {
                        do {
                            try await live.deviceClient().enrol(
                                name: "phone", pin: "27491", user: user, accessToken: tokens.accessToken)
                            return "enrolled"
                        } catch let error as APIClientError { return error.code.rawValue } catch { return "\(error)" }
                    }
                }
                return await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == "enrolled" }.count == 1)
            #expect(outcomes.filter { $0 == "device_limit" }.count == 9)
            let devices = try await live.api.call(
                "GET", "/v1/identity/devices", credential: .bearer(tokens.accessToken), as: [EnrolledDeviceResponse].self)
            try await live.api.callExpectingNoContent(
                "DELETE", "/v1/identity/devices/\(devices[0].id)", credential: .bearer(tokens.accessToken))
            try await live.deviceClient().enrol(name: "new phone", pin: "27491", user: user, accessToken: tokens.accessToken)
        }
    }

    @Test("enrolment refuses keys that did not sign, or signed for another account, naming the field")
    func enrolmentProofs() async throws {
        try await LiveIdentityServer.run { live in
            let (user, tokens) = try await live.account()
            let device = Curve25519.Signing.PrivateKey()
            let pin = Curve25519.Signing.PrivateKey()
            let deviceKey = Base64URL.encode(device.publicKey.rawRepresentation)
            let pinKey = Base64URL.encode(pin.publicKey.rawRepresentation)
            func enrol(_ request: EnrolDeviceRequest) async throws -> (Int, String?, String?) {
                let response = try await live.api.exchange(
                    "POST", "/v1/identity/devices", body: try APIClient.encode(request),
                    credential: .bearer(tokens.accessToken))
                let error = APIClient.error(from: response)
                return (response.status, error.code.rawValue, error.field)
            }
            let statement = IdentityStatement.enrolment(userId: user.id, deviceKey: deviceKey, pinKey: pinKey)
            let other = IdentityStatement.enrolment(userId: "someone-else", deviceKey: deviceKey, pinKey: pinKey)
            let good = (
                Base64URL.encode(try device.signature(for: statement)), Base64URL.encode(try pin.signature(for: statement))
            )
            let forOther = Base64URL.encode(try device.signature(for: other))
            let cases: [(EnrolDeviceRequest, String)] = [
                (
                    .init(name: "p", deviceKey: deviceKey, pinKey: pinKey, deviceSignature: forOther, pinSignature: good.1),
                    "deviceSignature"
                ),
                (
                    .init(name: "p", deviceKey: deviceKey, pinKey: pinKey, deviceSignature: good.1, pinSignature: good.1),
                    "deviceSignature"
                ),
                (
                    .init(name: "p", deviceKey: deviceKey, pinKey: pinKey, deviceSignature: good.0, pinSignature: good.0),
                    "pinSignature"
                ),
                (.init(name: "p", deviceKey: "AAAA", pinKey: pinKey, deviceSignature: good.0, pinSignature: good.1), "deviceKey"),
                (
                    .init(name: "p", deviceKey: deviceKey, pinKey: deviceKey, deviceSignature: good.0, pinSignature: good.0),
                    "pinKey"
                ),
                (.init(name: " ", deviceKey: deviceKey, pinKey: pinKey, deviceSignature: good.0, pinSignature: good.1), "name"),
                (
                    .init(
                        name: String(repeating: "n", count: 101), deviceKey: deviceKey, pinKey: pinKey, deviceSignature: good.0,
                        pinSignature: good.1), "name"
                ),
            ]
            for (request, field) in cases {
                let (status, _, answeredField) = try await enrol(request)
                #expect(status == 400, "\(field)")
                #expect(answeredField == field)
            }
            let (status, _, _) = try await enrol(
                .init(name: "phone", deviceKey: deviceKey, pinKey: pinKey, deviceSignature: good.0, pinSignature: good.1))
            #expect(status == 201)
            // Without a session, nobody enrols.
            let anonymous = try await live.api.exchange(
                "POST", "/v1/identity/devices",
                body: try APIClient.encode(
                    EnrolDeviceRequest(
                        name: "p", deviceKey: deviceKey, pinKey: pinKey, deviceSignature: good.0, pinSignature: good.1)))
            #expect(anonymous.status == 401)
        }
    }

    @Test("a session issued for a device that was being revoked at that moment is not live", arguments: Engine.available)
    func revocationRace(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (client, user, _) = try await live.enrolled()
            let device = try await client.device()
            let storage = live.server.storage
            #expect(try await storage.revokeEnrolledDevice(id: device.id, userId: nil, reason: "revoked", now: live.clock.now))
            // The session request read the device before the revocation and stores its family after it.
            let family = "late-\(UUID().uuidString)"
            try await storage.insertRefreshToken(
                tokenHash: "late-token-\(UUID().uuidString)", familyId: family, userId: user.id, issuedAt: live.clock.now,
                expiresAt: live.clock.now.addingTimeInterval(3600), newFamily: true, deviceId: device.id)
            #expect(try await !storage.refreshFamilyIsActive(familyId: family))
            #expect(try await storage.catalogRevision(ifFamilyIsActive: family) == nil)
        }
    }
}
