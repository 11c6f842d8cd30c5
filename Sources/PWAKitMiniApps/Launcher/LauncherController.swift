public import Foundation
public import Observation
import PWAKitAPI
public import PWAKitModules

/// The launcher as one object: the root routing, the sign-in form, the grid, settings and the
/// mini-app being opened, with one ``LauncherSnapshot`` of all of it that is sent on every
/// change (``onChange``). The `launcher` bridge module drives it from the launcher's page; a
/// native launcher binds to the same models.
@MainActor
@Observable
public final class LauncherController {
    /// Root routing.
    public let root: RootModel
    /// The login and registration form.
    public let form: SignInModel
    /// The grid.
    public let grid: LauncherModel
    /// Settings.
    public let settings: SettingsModel
    /// The account.
    public let account: AccountSession
    /// The store.
    public let store: BundleStore
    /// The updater (pinned publisher keys).
    public let updater: Updater
    /// How long a release on probation has to report ready.
    public let readyDeadline: Duration

    /// Biometric unlock, when the device offers a gate.
    public let gate: BiometricGate?
    /// How long the app may stay in the background before it asks for biometrics again.
    public var relockAfter: Duration
    /// Whether biometric unlock is on.
    public private(set) var biometricUnlock = false
    /// What the sensor offers.
    public private(set) var biometrics = BiometricAvailability(available: false, biometryType: .none)
    /// Why the last unlock, or turning biometric unlock on or off, did not work.
    public private(set) var unlockError: String?

    /// The mini-app being opened or shown, or the last one (its outcome stays on show).
    public private(set) var running: MiniAppModel?
    /// When the last ``open(_:)`` was asked for (the tap), for measuring tap → ready.
    @ObservationIgnored public private(set) var openRequestedAt: ContinuousClock.Instant?
    /// Whether ``running`` is on screen.
    public private(set) var isShowingApp = false

    /// Shows a mini-app whose launch is prepared: the host serves `release` at `app://<appId>/`
    /// and reports its page events to `app`.
    @ObservationIgnored public var present:
        (@MainActor (_ app: MiniAppModel, _ release: LaunchableRelease, _ entry: CatalogEntry?) -> Void)?
    /// Called with the new snapshot whenever what the launcher shows changes.
    @ObservationIgnored public var onChange: (@MainActor (LauncherSnapshot) -> Void)? {
        didSet { track() }
    }

    @ObservationIgnored private var backgroundSince: ContinuousClock.Instant?
    @ObservationIgnored private let now: @Sendable () -> ContinuousClock.Instant
    @ObservationIgnored private var last: LauncherSnapshot?
    @ObservationIgnored private var tracking = false
    private let catalog: CatalogStore

    /// A launcher for the server `client` talks to, keeping its catalog in `catalogDirectory`.
    public init(
        account: AccountSession, store: BundleStore, trust: PublisherTrust, catalogDirectory: URL,
        readyDeadline: Duration = .seconds(10), gate: BiometricGate? = nil, relockAfter: Duration = .seconds(300),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }
    ) {
        self.account = account
        self.gate = gate
        self.relockAfter = relockAfter
        self.now = now
        self.store = store
        self.readyDeadline = readyDeadline
        let catalog = CatalogStore(client: account.client, tokens: account, directory: catalogDirectory)
        self.catalog = catalog
        updater = Updater(client: account.client, store: store, trust: trust, tokens: account)
        root = RootModel(account: account)
        form = SignInModel(account: account)
        grid = LauncherModel(catalog: catalog, store: store, updater: updater)
        settings = SettingsModel(account: account, store: store, catalog: catalog)
    }

    /// Restores the stored session and, signed in, loads the grid; with biometric unlock on, the
    /// session stays locked until a check succeeds (one is asked for at once).
    public func start() async {
        await loadBiometrics()
        await root.start()
        await settings.load()
        if case .locked = root.route { await unlock() }
        if case .launcher = root.route {
            // The kept grid at once, then the server's.
            await grid.reload()
            await refresh()
        }
    }

    // MARK: Biometric unlock

    /// Asks for a biometric check and, on success, releases the session.
    public func unlock() async {
        guard case .locked = await account.state, let gate else { return }
        do {
            switch try await gate.unlock(reason: "Unlock PWAKit") {
            case .unlocked:
                try await account.unlockFromVault()
                root.apply(await account.state)
                unlockError = nil
                await afterUnlock()
            case .failed(let failure):
                unlockError = Self.sentence(failure)
            case .enrollmentChanged:
                biometricUnlock = false
                unlockError =
                    "The biometrics on this device changed. Enter your password; biometric unlock is off until you turn it on again."
            }
        } catch {
            unlockError = LauncherModel.sentence(error)
        }
    }

    /// Unlocks with the password (the fallback): checked by the server.
    public func unlock(password: String) async {
        guard case .locked = await account.state else { return }
        do {
            try await account.unlock(password: password)
            root.apply(await account.state)
            try await gate?.openWithPassword()
            unlockError = nil
            await afterUnlock()
        } catch let error as APIClientError {
            unlockError = SignInModel.sentence(for: error)
        } catch {
            unlockError = LauncherModel.sentence(error)
        }
    }

    /// Turns biometric unlock on after an availability check and one successful check.
    public func enableBiometricUnlock() async {
        guard let gate else {
            unlockError = "This device offers no biometric unlock."
            return
        }
        do {
            try await gate.enable(reason: "Turn on biometric unlock")
            unlockError = nil
        } catch {
            unlockError = LauncherModel.sentence(error)
        }
        await loadBiometrics()
    }

    /// Turns biometric unlock off; the password is checked by the server first.
    public func disableBiometricUnlock(password: String) async {
        guard let gate, let user = Self.user(root.route) else { return }
        do {
            try await account.signIn(email: user.email, password: password)
            try await gate.disable()
            unlockError = nil
        } catch let error as APIClientError {
            unlockError = SignInModel.sentence(for: error)
        } catch {
            unlockError = LauncherModel.sentence(error)
        }
        await loadBiometrics()
    }

    /// The app went to the background (its window hidden or minimised).
    public func didEnterBackground() {
        backgroundSince = now()
    }

    /// The app came back; after ``relockAfter`` in the background, with biometric unlock on, the
    /// session locks and a check is asked for.
    public func willEnterForeground() async {
        guard let since = backgroundSince else { return }
        backgroundSince = nil
        guard biometricUnlock, let gate, now() - since >= relockAfter, case .launcher = root.route else { return }
        await gate.lock()
        await account.lockAndForget()
        root.apply(await account.state)
        await unlock()
    }

    private func afterUnlock() async {
        if case .launcher = root.route {
            if case .loading = grid.content { await refresh() }
        }
    }

    private func loadBiometrics() async {
        guard let gate else { return }
        biometrics = await gate.availability()
        do {
            biometricUnlock = try await gate.isEnabled()
        } catch {
            // NB: settings that cannot be read never count as off: the session still locks again after
            // time in the background, and the reason is shown.
            biometricUnlock = true
            // NB: a reason already shown (a wrong password, say) is not replaced.
            if unlockError == nil { unlockError = LauncherModel.sentence(error) }
        }
    }

    static func sentence(_ failure: BiometricFailure) -> String {
        switch failure {
        case .lockout: "Biometrics are locked after too many attempts. Use your password."
        case .failed: "Not recognised. Try again, or use your password."
        case .userCancel, .systemCancel, .fallback: "Unlock was cancelled. Try again, or use your password."
        case .notEnrolled: "No biometrics are enrolled on this device. Use your password."
        case .notAvailable, .passcodeNotSet: "Biometrics are not available. Use your password."
        }
    }

    /// Signs in with the form's fields; the grid loads on success.
    public func signIn(email: String, password: String) async {
        form.email = email
        form.password = password
        if await form.signIn() { await refresh() }
    }

    /// Creates an account with the form's fields and signs in.
    public func register(email: String, password: String, confirmation: String, displayName: String) async {
        form.email = email
        form.password = password
        form.confirmation = confirmation
        form.displayName = displayName
        if await form.register() { await refresh() }
    }

    /// Fetches the catalog and checks installed apps for updates.
    public func refresh() async {
        await grid.refresh()
        await settings.load()
    }

    /// Installs an app, or downloads its update for the next launch.
    public func install(_ appId: String) async throws(MiniAppError) {
        try known(appId)
        await grid.install(appId)
        await settings.load()
    }

    /// Opens an app: installs it first when the store has none of it, then asks ``present`` to
    /// show the release under the ready rule. Opening while another app is shown does nothing.
    public func open(_ appId: String) async throws(MiniAppError) {
        let entry = try known(appId)
        guard !isShowingApp, !isOpening else { return }
        openRequestedAt = now()
        let app = MiniAppModel(appId: appId, store: store, updater: updater, readyDeadline: readyDeadline)
        running = app
        guard let release = await app.open(channel: entry.channel) else {
            await refreshGrid()
            return
        }
        isShowingApp = true
        present?(app, release, entry)
        await refreshGrid()
    }

    /// The shown app was closed (back to the launcher, or rolled back).
    public func closeApp() {
        isShowingApp = false
        Task { await refreshGrid() }
    }

    /// Removes one app's files.
    public func clear(_ appId: String) async throws(MiniAppError) {
        try known(appId)
        await settings.clear(appId)
        await refreshGrid()
    }

    /// Follows another channel of an app from its next update check on.
    public func setChannel(_ channel: String, for appId: String) async throws(MiniAppError) {
        let entry = try known(appId)
        guard entry.app.channels.contains(channel) else {
            throw MiniAppError(
                .invalidArgument, "\(appId) offers the channels \(entry.app.channels.joined(separator: ", ")), not \(channel)",
                field: "channel")
        }
        await settings.setChannel(channel, for: appId)
        await refresh()
    }

    /// Signs out: the refresh token is revoked on the server, the kept catalog forgotten, and
    /// biometric unlock turned off (the next account turns it on for itself).
    public func signOut() async {
        await settings.signOut()
        try? await gate?.disable()
        await loadBiometrics()
        running = nil
        isShowingApp = false
    }

    /// What the launcher shows now.
    public func snapshot() -> LauncherSnapshot {
        LauncherSnapshot(
            route: Self.routeName(root.route), notice: root.notice, user: Self.user(root.route),
            signIn: SignInState(
                isSubmitting: form.isSubmitting, error: form.error,
                fieldErrors: form.fieldErrors.sorted { $0.key < $1.key }.map { FieldProblem(field: $0.key, message: $0.value) }),
            catalog: catalogState(), storage: StorageState(totalBytes: settings.totalBytes, error: settings.error),
            running: runningApp(), server: account.client.baseURL.absoluteString,
            unlock: UnlockState(
                available: biometrics.available, biometryType: biometrics.biometryType.rawValue, enabled: biometricUnlock,
                error: unlockError))
    }

    private var isOpening: Bool {
        if case .installing? = running?.state { return true }
        return false
    }

    @discardableResult
    private func known(_ appId: String) throws(MiniAppError) -> CatalogEntry {
        guard let entry = grid.entries.first(where: { $0.id == appId }) else {
            // NB: with no catalog to look in (it failed to load or cannot be read), the fault is not the
            // page's app id.
            if case .failed(let reason) = grid.content {
                throw MiniAppError(.storageFailed, "the catalog is not available: \(reason)")
            }
            throw MiniAppError(.unknownApp, "the catalog has no app \(appId)", field: "appId")
        }
        return entry
    }

    private func refreshGrid() async {
        await settings.load()
        await grid.reload()
    }

    private func catalogState() -> CatalogState {
        let status: String
        var error: String?
        switch grid.content {
        case .loading: status = "loading"
        case .apps: status = "apps"
        case .failed(let message):
            status = "failed"
            error = message
        }
        let apps = grid.entries.map { entry in
            AppTile(
                id: entry.id, name: entry.app.name, description: entry.app.description, icon: entry.app.icon,
                installedVersion: entry.installedVersion, pendingVersion: entry.pendingVersion,
                availableVersion: entry.availableVersion, rolledBack: entry.rolledBackCount, bytes: entry.bytes,
                channel: entry.channel, channels: entry.app.channels,
                progress: grid.progress[entry.id].map { TransferProgress(bytesDone: $0.bytesDone, bytesTotal: $0.bytesTotal) },
                failure: grid.failures[entry.id])
        }
        return CatalogState(status: status, error: error, offline: grid.isOffline, refreshing: grid.isRefreshing, apps: apps)
    }

    private func runningApp() -> RunningApp? {
        guard let running else { return nil }
        let name = grid.entries.first { $0.id == running.appId }?.app.name ?? running.appId
        var app = RunningApp(appId: running.appId, name: name, state: "", shown: isShowingApp)
        switch running.state {
        case .idle: app.state = "loading"
        case .installing(let progress):
            app.state = "installing"
            app.progress = TransferProgress(bytesDone: progress.bytesDone, bytesTotal: progress.bytesTotal)
        case .loading(let version):
            app.state = "loading"
            app.version = version
        case .ready(let version):
            app.state = "ready"
            app.version = version
        case .failed(let reason):
            app.state = "failed"
            app.reason = reason
        case .rolledBack(let version, let reason):
            app.state = "rolledBack"
            app.version = version
            app.reason = reason
        }
        return app
    }

    /// The snapshot's name of `route`.
    public static func routeName(_ route: RootModel.Route) -> String {
        switch route {
        case .starting: "starting"
        case .login: "login"
        case .launcher: "launcher"
        case .locked: "locked"
        }
    }

    static func user(_ route: RootModel.Route) -> LauncherUser? {
        switch route {
        case .launcher(let user), .locked(let user):
            LauncherUser(id: user.id, email: user.email, displayName: user.displayName)
        case .starting, .login: nil
        }
    }

    /// Follows every observable value ``snapshot()`` reads; one registration at a time.
    private func track() {
        guard onChange != nil, !tracking else { return }
        tracking = true
        let current = withObservationTracking {
            snapshot()
        } onChange: { [weak self] in
            Task { @MainActor [weak self] in
                guard let self else { return }
                self.tracking = false
                self.track()
            }
        }
        if current != last {
            last = current
            onChange?(current)
        }
    }
}
