public import PWAKitDependencies

enum HTTPTransportKey: DependencyKey {
    static var liveValue: any HTTPTransport { URLSessionTransport() }
}

extension DependencyValues {
    /// What carries HTTP requests (live: `URLSessionTransport`; unimplemented in tests, so a test
    /// never reaches the network by accident).
    public var httpTransport: any HTTPTransport {
        get { self[HTTPTransportKey.self] }
        set { self[HTTPTransportKey.self] = newValue }
    }
}
