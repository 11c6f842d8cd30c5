/// A file operation that failed: a stable code, the path, the operation and the `errno` it failed with.
public struct FileSystemError: Error, Sendable, CustomStringConvertible {
    /// A stable code.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// Reading, writing, syncing or renaming failed; ``FileSystemError/errno`` says why.
        public static let ioFailed = Code("io_failed")
    }

    /// The stable code.
    public let code: Code
    /// The operation that failed (`open`, `fsync`, `rename`, …).
    public let operation: String
    /// The file at fault.
    public let path: String
    /// The C error number.
    public let errno: Int32

    /// Creates an error.
    public init(_ code: Code, operation: String, path: String, errno: Int32) {
        self.code = code
        self.operation = operation
        self.path = path
        self.errno = errno
    }

    /// `operation path: reason`.
    public var description: String {
        "\(operation) \(path): \(String(cString: strerror(errno)))"
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
