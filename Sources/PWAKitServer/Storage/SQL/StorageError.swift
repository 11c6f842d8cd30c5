/// A failure of the storage layer itself (not of the caller's input).
struct StorageError: Error, CustomStringConvertible {
    let message: String
    static func corrupt(_ column: String) -> StorageError { StorageError(message: "unexpected value in column \(column)") }
    var description: String { "storage: \(message)" }
}
