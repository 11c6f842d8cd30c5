import PWAKitBundles
import PWAKitCore
import PWAKitMiniApps
import Testing

@Suite("Launch guard: the ready rule applied to the store")
struct LaunchGuardTests {
    let key = SigningKey.generate()

    func storeWithTwoReleases() throws -> (BundleStore, VerifiedRelease, VerifiedRelease) {
        let store = try BundleStore(root: temporaryDirectory())
        let v1Files = ["index.html": bytes("one")]
        let v1 = try verifiedRelease("quiz", "1.0.0", files: v1Files, key: key)
        try store.installing(v1, files: v1Files)
        try store.confirmReady(appId: "quiz", bundleHash: v1.bundleHash)
        let v2Files = ["index.html": bytes("two")]
        let v2 = try verifiedRelease("quiz", "2.0.0", files: v2Files, key: key)
        try store.installing(v2, files: v2Files, activation: .nextLaunch)
        return (store, v1, v2)
    }

    @Test("ready from the release's own document ends its probation")
    func confirm() throws {
        let (store, _, v2) = try storeWithTwoReleases()
        let release = try #require(try store.prepareLaunch(appId: "quiz"))
        #expect(release.bundleHash == v2.bundleHash && release.onProbation)
        let guardian = LaunchGuard(store: store, release: release, deadline: .seconds(3))
        #expect(try guardian.documentOpened(PageLoadID(rawValue: 1), origin: "app://chess") == .none)
        #expect(try guardian.documentOpened(PageLoadID(rawValue: 2), origin: "app://quiz") == .startDeadline(.seconds(3)))
        #expect(try guardian.reportedReady(PageLoadID(rawValue: 1), origin: "app://quiz") == .none)
        #expect(try guardian.reportedReady(PageLoadID(rawValue: 2), origin: "app://quiz") == .confirm)
        #expect(try store.app("quiz").probation == nil)
        #expect(try store.prepareLaunch(appId: "quiz")?.bundleHash == v2.bundleHash)
    }

    @Test("a missed deadline or a crashed web process rolls back to the previous release", arguments: [false, true])
    func rollBack(crash: Bool) throws {
        let (store, v1, v2) = try storeWithTwoReleases()
        let guardian = LaunchGuard(store: store, release: try #require(try store.prepareLaunch(appId: "quiz")))
        _ = try guardian.documentOpened(PageLoadID(rawValue: 5), origin: "app://quiz")
        let action = try guardian.handle(crash ? .webProcessTerminated : .deadlineElapsed)
        guard case .rollBack = action else { throw TestFailure("expected a rollback, got \(action)") }
        #expect(try store.app("quiz").active == v1.bundleHash)
        #expect(try store.app("quiz").bad == [v2.bundleHash])
        #expect(try store.prepareLaunch(appId: "quiz")?.bundleHash == v1.bundleHash)
    }

    @Test("a release already trusted is not watched")
    func trusted() throws {
        let (store, v1, _) = try storeWithTwoReleases()
        try store.activate(appId: "quiz", bundleHash: v1.bundleHash)
        try store.confirmReady(appId: "quiz", bundleHash: v1.bundleHash)
        let release = try #require(try store.activeRelease(appId: "quiz"))
        let guardian = LaunchGuard(store: store, release: release)
        #expect(try guardian.handle(.webProcessTerminated) == .none)
        #expect(try store.app("quiz").active == v1.bundleHash)
    }
}
