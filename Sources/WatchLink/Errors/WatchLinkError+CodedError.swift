public import PWAKitErrors

extension WatchLinkError: CodedError {
    /// The code.
    public var codeName: String { code.rawValue }
    /// `details["field"]`, else `details["path"]` (a file), when one is named.
    public var fieldPath: String? { details["field"] ?? details["path"] }
}
