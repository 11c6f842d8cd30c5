import Foundation
import PWAKitAPI
import PWAKitIdentity
import PWAKitModules
import Synchronization
import Testing

@testable import PWAKitServer

@Suite("PIN: counted only by the server")
struct PINTests {
    @Test(
        "a wrong PIN says how many attempts are left; the wrong one that reaches the limit deregisters and wipes the device, and then the right PIN is refused"
    )
    func attemptLimit() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled(pin: "27491")
            for left in [2, 1] {
                let error = await #expect(throws: APIClientError.self) { try await client.signIn(.pin("11235")) }
                #expect(error?.code.rawValue == "wrong_pin")
                #expect(error?.message.contains("\(left) attempt") == true)
                #expect(try await client.device().pinAttemptsLeft == left)
            }
            let last = await #expect(throws: IdentityError.self) { try await client.signIn(.pin("11235")) }
            #expect(last?.code == .deregistered)
            #expect(try await client.identity() == nil)
            await #expect(throws: IdentityError.self) { try await client.signIn(.pin("27491")) }
        }
    }

    @Test("a right PIN clears the count of wrong ones")
    func rightClears() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled(pin: "27491")
            for _ in 0..<2 {
                let error = await #expect(throws: APIClientError.self) { try await client.signIn(.pin("11235")) }
                #expect(error?.code.rawValue == "wrong_pin")
            }
            #expect(try await client.device().pinAttemptsLeft == 1)
            _ = try await client.signIn(.pin("27491"))
            #expect(try await client.device().pinAttemptsLeft == 3)
        }
    }

    @Test(
        "100 parallel wrong guesses consume no more than the limit, and the right PIN is refused after them",
        arguments: Engine.available)
    func parallelGuesses(engine: Engine) async throws {
        try await LiveIdentityServer.run(engine: engine) { live in
            let (client, _, _) = try await live.enrolled(pin: "27491")
            let identity = try #require(try await client.identity())
            let counted = await withTaskGroup(of: String.self) { group in
                for guess in 0..<100 {
                    group.addTask {
                        let pin = String(50_000 + guess * 7)
                        do {
                            let headers = try await client.proofHeaders(
                                method: "POST", target: "/v1/identity/device/session", body: Data(), identity: identity,
                                person: .pin(pin))
                            let response = try await live.api.exchange(
                                "POST", "/v1/identity/device/session", headers: headers, idempotent: false)
                            return response.status == 200 ? "signed_in" : response.errorCode ?? "\(response.status)"
                        } catch { return "\(error)" }
                    }
                }
                return await group.reduce(into: [String: Int]()) { $0[$1, default: 0] += 1 }
            }
            #expect(counted["signed_in"] == nil)
            // Two wrong guesses are told so; the third deregisters; the rest find no attempt left.
            #expect((counted["wrong_pin"] ?? 0) <= 2, "\(counted)")
            #expect((counted["wrong_pin"] ?? 0) + (counted["device_deregistered"] ?? 0) == 100, "\(counted)")
            let stored = try #require(try await live.server.storage.enrolledDevice(id: identity.deviceId))
            #expect(stored.pinFailures <= 3)
            #expect(stored.revokedReason == "pin_attempts")
            let right = try await client.proofHeaders(
                method: "POST", target: "/v1/identity/device/session", body: Data(), identity: identity, person: .pin("27491"))
            let refused = try await live.api.exchange("POST", "/v1/identity/device/session", headers: right, idempotent: false)
            #expect(refused.status == 403)
            #expect(refused.errorCode == "device_deregistered")
        }
    }

    @Test("changing the PIN needs the current one; afterwards only the new PIN works")
    func changePIN() async throws {
        try await LiveIdentityServer.run { live in
            let (client, _, _) = try await live.enrolled(pin: "27491")
            let refused = await #expect(throws: APIClientError.self) {
                try await client.changePIN(current: "11235", new: "80417")
            }
            #expect(refused?.code.rawValue == "wrong_pin")
            #expect(try await client.identity()?.pendingPIN == nil)
            let policy = await #expect(throws: IdentityError.self) { try await client.changePIN(current: "27491", new: "12345") }
            #expect(policy?.code == .pinPolicy)
            #expect(policy?.field == "newPin")
            try await client.changePIN(current: "27491", new: "80417")
            #expect(try await client.device().pinVersion == 2)
            _ = try await client.signIn(.pin("80417"))
            let old = await #expect(throws: APIClientError.self) { try await client.signIn(.pin("27491")) }
            #expect(old?.code.rawValue == "wrong_pin")
        }
    }

    @Test(
        "a PIN change whose answer was lost after the server took it settles to the new PIN; one the server never saw keeps the old"
    )
    func interruptedChange() async throws {
        try await LiveIdentityServer.run { live in
            let (user, tokens) = try await live.account()
            let store = InMemorySecureStore()
            let lossy = LossyTransport(URLSessionTransport())
            let clock = live.clock
            let client = IdentityClient(
                api: APIClient(baseURL: live.baseURL, transport: lossy), keychain: IdentityKeychain(store: store),
                cost: PINCost(n: 16, r: 8, p: 1), now: { clock.now })
            try await client.enrol(name: "phone", pin: "27491", user: user, accessToken: tokens.accessToken)
            // The server takes the change, and the answer never arrives.
            lossy.mode.withLock { $0 = .dropAnswer }
            await #expect(throws: APIClientError.self) { try await client.changePIN(current: "27491", new: "80417") }
            lossy.mode.withLock { $0 = .pass }
            #expect(try await client.identity()?.pendingPIN != nil)
            _ = try await client.signIn(.pin("80417"))
            #expect(try await client.identity()?.pendingPIN == nil)
            // The request never reaches the server: the old PIN stays.
            lossy.mode.withLock { $0 = .dropRequest }
            await #expect(throws: APIClientError.self) { try await client.changePIN(current: "80417", new: "30952") }
            lossy.mode.withLock { $0 = .pass }
            _ = try await client.signIn(.pin("80417"))
            #expect(try await client.device().pinAttemptsLeft == 3)
        }
    }

    @Test("a biometric authenticator is added with the PIN, signs in after a biometric check, and can be removed; the PIN cannot")
    func biometric() async throws {
        try await LiveIdentityServer.run { live in
            let sensor = SimulatedDevice()
            let (client, user, _) = try await live.enrolled(pin: "27491", biometrics: sensor)
            try await client.addBiometric(pin: "27491")
            #expect(try await client.device().authenticators == [.pin, .biometric])
            #expect(try await client.signIn(.biometric(reason: "Sign in")).user.id == user.id)
            await sensor.scriptBiometrics([.failed])
            let failed = await #expect(throws: IdentityError.self) { try await client.signIn(.biometric(reason: "Sign in")) }
            #expect(failed?.code == .biometricFailed)
            // A failed biometric check costs no PIN attempt.
            #expect(try await client.device().pinAttemptsLeft == 3)
            try await client.removeBiometric()
            #expect(try await client.device().authenticators == [.pin])
            let gone = await #expect(throws: IdentityError.self) { try await client.signIn(.biometric(reason: "Sign in")) }
            #expect(gone?.code == .noBiometric)
            let identity = try #require(try await client.identity())
            let headers = try await client.proofHeaders(
                method: "DELETE", target: "/v1/identity/device/authenticators/pin", body: Data(), identity: identity, person: nil)
            let pin = try await live.api.exchange(
                "DELETE", "/v1/identity/device/authenticators/pin", headers: headers, idempotent: false)
            #expect(pin.status == 400)
            #expect(APIClient.error(from: pin).field == "kind")
        }
    }
}

/// Passes requests on, or loses them before or after the server sees them.
final class LossyTransport: HTTPTransport {
    enum Mode { case pass, dropRequest, dropAnswer }
    let inner: any HTTPTransport
    let mode = Mutex(Mode.pass)

    init(_ inner: any HTTPTransport) { self.inner = inner }

    func send(_ request: HTTPRequestData) async throws -> HTTPResponseData {
        switch mode.withLock({ $0 }) {
        case .pass: return try await inner.send(request)
        case .dropRequest: throw APIClientError(.network, "the connection failed before the request was sent")
        case .dropAnswer:
            _ = try await inner.send(request)
            throw APIClientError(.network, "the connection failed before the answer arrived")
        }
    }
}
