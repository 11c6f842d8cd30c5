/// The dependencies of the running task: a value, carried in a task-local, so every task tree sees
/// its own (tests run in parallel, each with theirs) and nothing is shared mutable state.
///
/// Read with a key path (`DependencyValues.current.clock`, or `@Dependency(\.clock)`); override for
/// a scope with ``withDependencies(_:operation:)-(_,()->R)``.
public struct DependencyValues: Sendable {
    /// Whether values come from the keys' live or test values.
    public enum Context: String, Sendable {
        /// Production: every key's ``DependencyKey/liveValue``.
        case live
        /// Tests: a key's ``DependencyKey/testValue``; a key without one stops the test when read.
        case test
    }

    /// The context for keys that are not set.
    public var context: Context
    private var storage: [ObjectIdentifier: any Sendable] = [:]

    /// Empty values in `context`.
    public init(context: Context = .live) { self.context = context }

    /// The dependencies of the running task.
    @TaskLocal public static var current = DependencyValues()

    /// A key's value: the one set in this scope, else its live or test value.
    public subscript<Key: DependencyKey>(key: Key.Type) -> Key.Value {
        get {
            if let value = storage[ObjectIdentifier(key)] as? Key.Value { return value }
            switch context {
            case .live: return Key.liveValue
            case .test:
                if let value = Key.testValue { return value }
                Self.unimplemented(key)
            }
        }
        set { storage[ObjectIdentifier(key)] = newValue }
    }

    /// Whether a key is set in these values (rather than falling back to its live or test value).
    public func isSet<Key: DependencyKey>(_ key: Key.Type) -> Bool { storage[ObjectIdentifier(key)] != nil }

    static func unimplemented<Key: DependencyKey>(_ key: Key.Type) -> Never {
        preconditionFailure(
            "unimplemented dependency \(String(reflecting: key)) read in a test context: set it with "
                + "withDependencies { $0[\(String(describing: key)).self] = … } before the code under test reads it")
    }
}

/// Runs `operation` with the current dependencies changed by `update`; tasks it starts inherit them.
public func withDependencies<R>(
    _ update: (inout DependencyValues) throws -> Void, operation: () throws -> R
) rethrows -> R {
    var values = DependencyValues.current
    try update(&values)
    return try DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs `operation` with the current dependencies changed by `update`; tasks it starts inherit them.
public func withDependencies<R>(
    _ update: (inout DependencyValues) throws -> Void, operation: () async throws -> R
) async rethrows -> R {
    var values = DependencyValues.current
    try update(&values)
    return try await DependencyValues.$current.withValue(values, operation: operation)
}

/// Runs `operation` in a test context (keys without a test value stop the test when read), with
/// `update` applied on top.
public func withTestDependencies<R>(
    _ update: (inout DependencyValues) -> Void = { _ in }, operation: () async throws -> R
) async rethrows -> R {
    var values = DependencyValues(context: .test)
    update(&values)
    return try await DependencyValues.$current.withValue(values, operation: operation)
}
