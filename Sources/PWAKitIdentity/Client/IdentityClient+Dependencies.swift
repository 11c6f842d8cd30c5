public import Foundation
import PWAKitAPI
public import PWAKitDependencies
public import PWAKitModules

extension IdentityClient {
    /// A client wired from the dependency container: requests go through `httpTransport`, waits
    /// between retries use `clock`, and proofs carry `date`'s time, so `withDependencies` (or, in
    /// tests, `withTestDependencies`) decides all three. Keys and nonces always come from the
    /// system's secure generator, never from a replaceable one.
    public init(
        baseURL: URL, keychain: IdentityKeychain, biometrics: (any BiometricsProvider)? = nil,
        policy: PINPolicy = .standard, dependencies: DependencyValues = .current
    ) {
        let date = dependencies.date
        self.init(
            api: APIClient(baseURL: baseURL, transport: dependencies.httpTransport, clock: dependencies.clock),
            keychain: keychain, biometrics: biometrics, policy: policy, now: { date.now })
    }
}
