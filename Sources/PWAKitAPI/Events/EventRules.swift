/// The rules an event must keep, checked by the device before it buffers one and by the server
/// before it stores one (one implementation, so the two cannot disagree).
public enum EventRules {
    /// Most events in one batch.
    public static let maximumBatch = 500
    /// Most properties of one event.
    public static let maximumProperties = 32
    /// Longest string property, in UTF-8 bytes.
    public static let maximumStringBytes = 1024
    /// The longest name (and property key).
    public static let maximumNameLength = 64
    /// The longest source.
    public static let maximumSourceLength = 32
    /// The earliest timestamp accepted: 2000-01-01.
    public static let earliestTimestamp: Int64 = 946_684_800_000
    /// The latest: 2200-01-01 (a clock far in the future is still a clock).
    public static let latestTimestamp: Int64 = 7_258_118_400_000

    /// The first rule `event` breaks, as the field at fault (under `prefix`) and a sentence; `nil`
    /// when it keeps them all.
    public static func problem(with event: EventPayload, at prefix: String = "") -> (field: String, message: String)? {
        let dot = prefix.isEmpty ? "" : "."
        if !isCanonicalUUID(event.id) {
            return (prefix + dot + "id", "must be a lowercase UUID (8-4-4-4-12 hexadecimal digits)")
        }
        if !isName(event.name, maximum: maximumNameLength) {
            return (
                prefix + dot + "name",
                "must be 1 to \(maximumNameLength) characters of a-z, 0-9, _ and ., starting with a letter"
            )
        }
        if !isName(event.source, maximum: maximumSourceLength) {
            return (
                prefix + dot + "source",
                "must be 1 to \(maximumSourceLength) characters of a-z, 0-9, _ and ., starting with a letter"
            )
        }
        if !(earliestTimestamp...latestTimestamp).contains(event.timestamp) {
            return (prefix + dot + "timestamp", "must be milliseconds since 1970 between the years 2000 and 2200")
        }
        if event.properties.count > maximumProperties {
            return (prefix + dot + "properties", "must have at most \(maximumProperties) properties")
        }
        for key in event.properties.keys.sorted() {
            let field = prefix + dot + "properties." + String(key.prefix(maximumNameLength))
            if !isName(key, maximum: maximumNameLength) {
                return (field, "a property name must be 1 to \(maximumNameLength) characters of a-z, 0-9, _ and .")
            }
            switch event.properties[key] {
            case .string(let text)? where text.utf8.count > maximumStringBytes:
                return (field, "must be at most \(maximumStringBytes) bytes")
            case .number(let number)? where !number.isFinite:
                return (field, "must be a finite number")
            default: break
            }
        }
        return nil
    }

    /// Whether `text` is a UUID in lowercase canonical form.
    public static func isCanonicalUUID(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                guard byte == UInt8(ascii: "-") else { return false }
            } else {
                guard
                    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                        || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                else { return false }
            }
        }
        return true
    }

    package static func isName(_ text: String, maximum: Int) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, !bytes.isEmpty, bytes.count <= maximum,
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
        else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
