public import PWAKitErrors

extension FileSystemError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
    /// `operation path: reason`.
    public var message: String { description }
}
