public import PWAKitErrors

extension MiniAppError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
    /// The field at fault.
    public var fieldPath: String? { field }
}
