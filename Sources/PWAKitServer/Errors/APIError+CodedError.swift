public import PWAKitErrors

extension APIError: CodedError {
    /// The code of the error body.
    public var codeName: String { code.rawValue }
    /// The field at fault.
    public var fieldPath: String? { field }
}

extension BlobStoreError: CodedError {
    /// `blob.<reason>`.
    public var codeName: String { "blob.\(reason.rawValue)" }
    /// What the reason means.
    public var message: String {
        switch reason {
        case .hashMismatch: "the bytes do not hash to the blob's name"
        case .tooLarge: "the blob is larger than allowed"
        case .notFound: "no blob has that hash"
        default: "the blob store refused it (\(reason.rawValue))"
        }
    }
    /// The reason.
    public var description: String { "\(codeName): \(message)" }
}

extension SeedError: CodedError {
    /// `seed.invalid`.
    public var codeName: String { "seed.invalid" }
    /// Every problem, one per line.
    public var message: String { description }
}

extension KeyFileError: CodedError {
    /// `key_file.invalid`.
    public var codeName: String { "key_file.invalid" }
}

extension StorageError: CodedError {
    /// `storage_failed`.
    var codeName: String { "storage_failed" }
}
