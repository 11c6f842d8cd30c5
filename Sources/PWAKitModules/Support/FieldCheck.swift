import Foundation
public import PWAKitCore

/// Small checks for ``ValidatedPayload`` implementations; each throws `invalid_payload`
/// naming the field.
public enum FieldCheck {
    /// `text` is 1…`maxBytes` UTF-8 bytes.
    public static func nonEmpty(_ text: String, _ path: String, maxBytes: Int = 1024) throws(BridgeError) {
        if text.isEmpty { throw .field(.invalidPayload, path: path, "must not be empty") }
        if text.utf8.count > maxBytes { throw .field(.invalidPayload, path: path, "must be at most \(maxBytes) bytes") }
    }

    /// `text`, when present, is at most `maxBytes` UTF-8 bytes.
    public static func length(_ text: String?, _ path: String, maxBytes: Int) throws(BridgeError) {
        if let text, text.utf8.count > maxBytes {
            throw .field(.invalidPayload, path: path, "must be at most \(maxBytes) bytes")
        }
    }

    /// `value` lies in `range`.
    public static func range<T: Comparable>(_ value: T, _ range: ClosedRange<T>, _ path: String) throws(BridgeError) {
        if !range.contains(value) {
            throw .field(.invalidPayload, path: path, "must be \(range.lowerBound)…\(range.upperBound), got \(value)")
        }
    }

    /// `value`, when present, lies in `range`.
    public static func range<T: Comparable>(_ value: T?, _ range: ClosedRange<T>, _ path: String) throws(BridgeError) {
        if let value { try Self.range(value, range, path) }
    }

    /// `start` is before `end`, and the span is at most `maxDays` days.
    public static func dateRange(_ start: ISODate, _ end: ISODate, _ path: String, maxDays: Double = 366) throws(BridgeError) {
        guard start < end else { throw .field(.invalidPayload, path: "\(path).endDate", "must be after startDate") }
        if end.date.timeIntervalSince(start.date) > maxDays * 86_400 {
            throw .field(.invalidPayload, path: "\(path).endDate", "the range may span at most \(Int(maxDays)) days")
        }
    }
}
