import Foundation
import HTTPTypes
public import Logging

extension SQLStorage {
    /// Opens (creating if needed) an SQLite database file: the embedded default, zero set-up.
    /// `nil` opens a private in-memory database.
    public static func sqlite(path: String?, logger: Logger = Logger(label: "pwakit.sqlite")) async throws -> SQLStorage {
        if let path {
            let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        return SQLStorage(driver: try await SQLiteDriver.open(path: path, logger: logger))
    }
}
