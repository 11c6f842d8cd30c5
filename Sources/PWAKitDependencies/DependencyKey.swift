/// A dependency: the value production code uses (``liveValue``) and, optionally, the one tests get
/// when they do not set their own (``testValue``).
///
/// A key without a test value is *unimplemented* in tests: reading it in a test context without
/// setting it first stops the test with a message naming the key, rather than letting the test
/// reach the network, the disk or the wall clock by accident.
public protocol DependencyKey: Sendable {
    /// The dependency's type.
    associatedtype Value: Sendable
    /// What production code gets.
    static var liveValue: Value { get }
    /// What tests get when they do not set a value; `nil` (the default) makes the key
    /// unimplemented in tests.
    static var testValue: Value? { get }
}

extension DependencyKey {
    /// Unimplemented in tests unless the key says otherwise.
    public static var testValue: Value? { nil }
}
