import Foundation

/// One result row, by column name.
struct SQLRow: Sendable {
    var values: [String: SQLValue]

    func text(_ column: String) throws -> String {
        guard case .text(let value) = values[column] else { throw StorageError.corrupt(column) }
        return value
    }

    func integer(_ column: String) throws -> Int64 {
        guard case .integer(let value) = values[column] else { throw StorageError.corrupt(column) }
        return value
    }

    func date(_ column: String) throws -> Date {
        Date(timeIntervalSince1970: Double(try integer(column)) / 1000)
    }

    func optionalDate(_ column: String) throws -> Date? {
        isNull(column) ? nil : try date(column)
    }

    func optionalText(_ column: String) throws -> String? {
        isNull(column) ? nil : try text(column)
    }

    func isNull(_ column: String) -> Bool {
        if case .null = values[column] { return true }
        return values[column] == nil
    }
}
