import Foundation
import HTTPTypes

/// A value bound to or read from a SQL statement; the storage uses only these three kinds.
enum SQLValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case null

    static func date(_ date: Date) -> SQLValue { .integer(Int64((date.timeIntervalSince1970 * 1000).rounded())) }
    static func optionalDate(_ date: Date?) -> SQLValue { date.map(SQLValue.date) ?? .null }
}
