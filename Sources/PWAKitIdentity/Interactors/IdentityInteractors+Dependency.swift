public import PWAKitDependencies

// NB: a main-actor struct of main-actor classes: it only ever crosses to the main actor.
extension IdentityInteractors: Sendable {}

enum IdentityInteractorsKey: DependencyKey {
    static var liveValue: IdentityInteractors? { nil }
}

extension DependencyValues {
    /// The interactors the app wired at launch over its root state and client (the seed's
    /// `@Injected var interactors`): views and models read them with
    /// `@Dependency(\.identityInteractors)`. Nil until the app sets them (there is no server or
    /// keychain to build them from by default); unimplemented in tests until a test sets them.
    public var identityInteractors: IdentityInteractors? {
        get { self[IdentityInteractorsKey.self] }
        set { self[IdentityInteractorsKey.self] = newValue }
    }
}
