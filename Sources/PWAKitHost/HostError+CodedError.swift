public import PWAKitErrors

extension HostError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
}
