public import PWAKitErrors

extension RoutingError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
    /// The part at fault.
    public var fieldPath: String? { field }
}
