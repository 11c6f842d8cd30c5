import Foundation
import PWAKitAPI
import PWAKitBundles
import PWAKitCore
import PWAKitMiniApps
import PWAKitModules
import Synchronization
import Testing

@Suite("biometric unlock: the session released only after a check; password fallback; enrolment changes")
@MainActor
struct BiometricUnlockTests {
    let key = SigningKey.generate()

    /// Time the test moves on.
    final class Offset: Sendable {
        let value = Mutex<Duration>(.zero)
        func advance(_ by: Duration) { value.withLock { $0 += by } }
    }

    /// A launcher over `vault` and a simulated sensor, with a clock the test moves.
    func launcher(_ platform: LivePlatform, vault: any SecureStore, device: SimulatedDevice, clock: Offset? = nil)
        -> LauncherController
    {
        let directory = temporaryDirectory("unlock")
        let start = ContinuousClock.now
        let gate = BiometricGate(inner: vault, biometrics: device, enrollment: device)
        return LauncherController(
            account: AccountSession(client: platform.client, vault: gate),
            store: try! BundleStore(root: directory.appendingPathComponent("store")),
            trust: PublisherTrust(keys: [key.verifyingKey]),
            catalogDirectory: directory.appendingPathComponent("catalog"), gate: gate, relockAfter: .seconds(60),
            now: { start + (clock?.value.withLock { $0 } ?? .zero) })
    }

    /// A started launcher signed in as a new account `email`, over a fresh vault and sensor.
    func signedInLauncher(_ platform: LivePlatform, email: String) async throws -> (
        LauncherController, any SecureStore, SimulatedDevice
    ) {
        _ = try await platform.signedInAccount(email: email)
        let vault: any SecureStore = InMemorySecureStore()
        let device = SimulatedDevice()
        let launcher = launcher(platform, vault: vault, device: device)
        await launcher.start()
        await launcher.signIn(email: email, password: "correct horse battery")
        return (launcher, vault, device)
    }

    @Test("on after a check; the next start is locked until biometrics succeed; failures say what to do")
    func unlockAtStart() async throws {
        try await LivePlatform.run { @MainActor platform in
            let (first, vault, device) = try await signedInLauncher(platform, email: "bio@example.com")
            let before = first.snapshot().unlock
            #expect(before.available && before.biometryType == "faceID" && !before.enabled && before.error == nil)
            // A failed check leaves it off.
            await device.scriptBiometrics([.userCancel])
            await first.enableBiometricUnlock()
            #expect(first.snapshot().unlock.enabled == false)
            #expect(first.snapshot().unlock.error?.contains("user_cancel") == true)
            await device.scriptBiometrics([nil])
            await first.enableBiometricUnlock()
            #expect(first.snapshot().unlock.enabled)

            // The next start: the session is behind the gate; the prompt fails, then succeeds.
            let gate = BiometricGate(inner: vault, biometrics: device, enrollment: device)
            await #expect(throws: MiniAppError.self) {
                _ = try await gate.value(for: "session", app: AccountSession.secureStoreApp)
            }
            await device.scriptBiometrics([.failed, nil])
            let second = launcher(platform, vault: vault, device: device)
            await second.start()
            #expect(second.snapshot().route == "locked")
            #expect(second.snapshot().user?.email == "bio@example.com")
            #expect(second.snapshot().unlock.error == "Not recognised. Try again, or use your password.")
            await second.unlock()
            #expect(second.snapshot().route == "launcher")
            #expect(second.snapshot().unlock.error == nil)
            // The released session works against the server.
            #expect(try await second.account.me().email == "bio@example.com")
        }
    }

    @Test("lockout and cancel fall back to the password; a wrong password is refused by the server")
    func passwordFallback() async throws {
        try await LivePlatform.run { @MainActor platform in
            _ = try await platform.signedInAccount(email: "fallback@example.com")
            let vault: any SecureStore = InMemorySecureStore()
            let device = SimulatedDevice()
            let first = launcher(platform, vault: vault, device: device)
            await first.start()
            await first.signIn(email: "fallback@example.com", password: "correct horse battery")
            await first.enableBiometricUnlock()
            await device.scriptBiometrics([.lockout])
            let second = launcher(platform, vault: vault, device: device)
            await second.start()
            #expect(second.snapshot().route == "locked")
            #expect(second.snapshot().unlock.error?.contains("Use your password") == true)
            await second.unlock(password: "not the password")
            #expect(second.snapshot().route == "locked")
            #expect(second.snapshot().unlock.error == "The email address or the password is wrong.")
            await second.unlock(password: "correct horse battery")
            #expect(second.snapshot().route == "launcher")
            #expect(second.snapshot().unlock.enabled, "the fallback does not turn biometric unlock off")
        }
    }

    @Test("a new enrolment turns biometric unlock off and asks for the password")
    func enrollmentChange() async throws {
        try await LivePlatform.run { @MainActor platform in
            _ = try await platform.signedInAccount(email: "enrol@example.com")
            let vault: any SecureStore = InMemorySecureStore()
            let device = SimulatedDevice()
            let first = launcher(platform, vault: vault, device: device)
            await first.start()
            await first.signIn(email: "enrol@example.com", password: "correct horse battery")
            await first.enableBiometricUnlock()
            await device.changeEnrollment(to: "someone else's finger")
            await device.scriptBiometrics([nil])
            let second = launcher(platform, vault: vault, device: device)
            await second.start()
            #expect(second.snapshot().route == "locked", "a matching new finger must not release the session")
            #expect(second.snapshot().unlock.enabled == false)
            #expect(second.snapshot().unlock.error?.contains("changed") == true)
            await second.unlock()
            #expect(second.snapshot().route == "locked")
            await second.unlock(password: "correct horse battery")
            #expect(second.snapshot().route == "launcher")
        }
    }

    @Test("back from the background after the configured time, it locks and asks again; sooner it does not")
    func relockAfterBackground() async throws {
        try await LivePlatform.run { @MainActor platform in
            _ = try await platform.signedInAccount(email: "relock@example.com")
            let device = SimulatedDevice()
            let clock = Offset()
            let launcher = launcher(platform, vault: InMemorySecureStore(), device: device, clock: clock)
            await launcher.start()
            await launcher.signIn(email: "relock@example.com", password: "correct horse battery")
            await launcher.enableBiometricUnlock()
            launcher.didEnterBackground()
            clock.advance(.seconds(59))
            await launcher.willEnterForeground()
            #expect(launcher.snapshot().route == "launcher")
            launcher.didEnterBackground()
            clock.advance(.seconds(61))
            await device.scriptBiometrics([.userCancel])
            await launcher.willEnterForeground()
            #expect(launcher.snapshot().route == "locked")
            #expect(launcher.snapshot().unlock.error?.contains("cancelled") == true)
            await device.scriptBiometrics([nil])
            await launcher.unlock()
            #expect(launcher.snapshot().route == "launcher")
        }
    }

    @Test(
        "an unreadable settings item keeps the gate closed, says so naming the item, and is left as it is",
        arguments: [#"{"enabled":"yes"}"#, "not json at all"])
    func unreadableSettings(_ settings: String) async throws {
        let app = AccountSession.secureStoreApp
        let vault: any SecureStore = InMemorySecureStore()
        try await vault.set(#"{"refreshToken":"kept"}"#, for: "session", app: app)
        try await vault.set(settings, for: "biometric-unlock", app: app)
        let device = SimulatedDevice()
        await device.scriptBiometrics([nil, nil])
        let gate = BiometricGate(inner: vault, biometrics: device, enrollment: device)

        let read = await #expect(throws: MiniAppError.self, "the refresh token is not handed out unchecked") {
            _ = try await gate.value(for: "session", app: app)
        }
        #expect(read?.code == .storeCorrupt)
        #expect(read?.field == "biometric-unlock")
        let check = await #expect(throws: MiniAppError.self, "a check does not answer .unlocked") {
            _ = try await gate.unlock(reason: "Unlock PWAKit")
        }
        #expect(check?.code == .storeCorrupt)
        #expect(check?.field == "biometric-unlock")
        await #expect(throws: MiniAppError.self) { _ = try await gate.isReleased() }
        // Asked again, still closed; nothing stored was deleted or rewritten.
        await #expect(throws: MiniAppError.self) { _ = try await gate.value(for: "session", app: app) }
        #expect(try await vault.value(for: "biometric-unlock", app: app) == settings)
        #expect(try await vault.value(for: "session", app: app) == #"{"refreshToken":"kept"}"#)

        // The password opens the gate for this run; the item stays as it is.
        try await gate.openWithPassword()
        #expect(try await gate.value(for: "session", app: app) == #"{"refreshToken":"kept"}"#)
        #expect(try await vault.value(for: "biometric-unlock", app: app) == settings)
    }

    @Test("a launcher whose biometric settings cannot be read starts locked, says why, and opens with the password")
    func unreadableSettingsAtStart() async throws {
        try await LivePlatform.run { @MainActor platform in
            let (first, vault, device) = try await signedInLauncher(platform, email: "damaged@example.com")
            await device.scriptBiometrics([nil])
            await first.enableBiometricUnlock()
            #expect(first.snapshot().unlock.enabled)
            let damaged = #"{"enabled":"yes"}"#
            try await vault.set(damaged, for: "biometric-unlock", app: AccountSession.secureStoreApp)

            await device.scriptBiometrics([nil, nil])
            let clock = Offset()
            let second = launcher(platform, vault: vault, device: device, clock: clock)
            await second.start()
            #expect(second.snapshot().route == "locked", "unreadable settings must not release the session")
            #expect(second.snapshot().user?.email == "damaged@example.com")
            #expect(second.snapshot().unlock.error?.contains("biometric-unlock") == true)
            await second.unlock()
            #expect(second.snapshot().route == "locked")
            await second.unlock(password: "correct horse battery")
            #expect(second.snapshot().route == "launcher")
            // Opened with the password, it still locks again after time in the background: the
            // settings never count as off.
            #expect(second.snapshot().unlock.enabled)
            second.didEnterBackground()
            clock.advance(.seconds(61))
            await device.scriptBiometrics([.userCancel])
            await second.willEnterForeground()
            #expect(second.snapshot().route == "locked")
            #expect(try await vault.value(for: "biometric-unlock", app: AccountSession.secureStoreApp) == damaged)
        }
    }

    @Test("turning it off needs the password; the module refuses without one, naming the field")
    func disableNeedsPassword() async throws {
        try await LivePlatform.run { @MainActor platform in
            _ = try await platform.signedInAccount(email: "off@example.com")
            let device = SimulatedDevice()
            let launcher = launcher(platform, vault: InMemorySecureStore(), device: device)
            await launcher.start()
            await launcher.signIn(email: "off@example.com", password: "correct horse battery")
            await launcher.enableBiometricUnlock()
            let module = LauncherModule(controller: launcher)
            let configuration = try ConfigurationLoader.load(
                from: Data(
                    #"{"version":1,"app":{"name":"PWAKit","bundleId":"pwakit.launcher","startUrl":"app://launcher/"},"origins":{"allowed":["launcher"]}}"#
                        .utf8))
            let context = ModuleContext(
                callID: "1",
                caller: BridgeCaller(origin: "app://launcher", pageLoad: PageLoadID(rawValue: 1), grant: .all),
                app: AppIdentity(name: "PWAKit", bundleID: "pwakit.launcher"), configuration: configuration, emit: { _ in })
            do {
                _ = try await module.handle(action: "setBiometricUnlock", payload: ["enabled": false], context: context)
                Issue.record("turned off without a password")
            } catch let error as BridgeError {
                #expect(error.code == .invalidPayload)
                #expect(error.details?["path"]?.stringValue == "payload.password")
            }
            _ = try await module.handle(
                action: "setBiometricUnlock", payload: ["enabled": false, "password": "wrong password"], context: context)
            #expect(launcher.snapshot().unlock.enabled)
            #expect(launcher.snapshot().unlock.error == "The email address or the password is wrong.")
            _ = try await module.handle(
                action: "setBiometricUnlock", payload: ["enabled": false, "password": "correct horse battery"], context: context)
            #expect(launcher.snapshot().unlock.enabled == false)

            // No sensor: it cannot be turned on.
            await device.scriptBiometrics([], type: .none, enrolled: false)
            await launcher.enableBiometricUnlock()
            #expect(launcher.snapshot().unlock.enabled == false)
            #expect(launcher.snapshot().unlock.error?.contains("not available") == true)
        }
    }
}
