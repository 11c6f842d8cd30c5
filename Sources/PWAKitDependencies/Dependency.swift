/// Reads a dependency of the running task when the property is read (not when the owner is made).
///
/// ```swift
/// struct Greeter {
///     @Dependency(\.date) var date
///     func greeting() -> String { date.now.timeIntervalSince1970 > 0 ? "hi" : "" }
/// }
/// ```
@propertyWrapper
public struct Dependency<Value: Sendable>: Sendable {
    private let keyPath: any KeyPath<DependencyValues, Value> & Sendable

    /// Reads `keyPath` of the current dependencies.
    public init(_ keyPath: any KeyPath<DependencyValues, Value> & Sendable) { self.keyPath = keyPath }

    /// The value in the running task's dependencies.
    public var wrappedValue: Value { DependencyValues.current[keyPath: keyPath] }
}
