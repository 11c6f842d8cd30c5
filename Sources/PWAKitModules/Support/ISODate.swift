public import Foundation
public import PWAKitCore

/// A date on the wire: an ISO 8601 string with a time zone (`2026-05-01T09:30:00Z`,
/// fractional seconds allowed). Anything else is `invalid_payload` naming the field.
public struct ISODate: Codable, Sendable, Hashable, Comparable, SchemaDescribed {
    /// The instant.
    public var date: Date

    /// Wraps `date`.
    public init(_ date: Date) { self.date = date }

    /// Parses `text`; `nil` when it is not ISO 8601 with a time zone.
    public init?(parsing text: String) {
        guard text.utf8.count <= 64 else { return nil }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) {
            self.date = date
        } else if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) {
            self.date = date
        } else {
            return nil
        }
    }

    /// Decodes an ISO 8601 string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let parsed = ISODate(parsing: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "expected an ISO 8601 date with a time zone, e.g. 2026-05-01T09:30:00Z")
        }
        self = parsed
    }

    /// Encodes as ISO 8601 in UTC, with milliseconds when there are any.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }

    /// The ISO 8601 text.
    public var text: String {
        let whole = date.timeIntervalSince1970.rounded(.down) == date.timeIntervalSince1970
        return date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: !whole))
    }

    /// A `date-time` string.
    public static func schemaNode() throws(SchemaError) -> SchemaNode { .string(format: "date-time") }

    /// The Unix epoch.
    public static var schemaPlaceholder: ISODate { ISODate(Date(timeIntervalSince1970: 0)) }

    /// Earlier first.
    public static func < (lhs: ISODate, rhs: ISODate) -> Bool { lhs.date < rhs.date }
}
