import Foundation

/// One value being encoded: the encoder handed to an `Encodable`, holding what its container wrote.
///
/// A nested value is encoded into a node of its own and appended to its parent's bytes once its
/// `encode(to:)` returns; containers asked for with `nestedContainer` or `superEncoder` may be
/// written in any order, so they stay separate nodes, spliced in where their key was written when
/// the parent is written out.
final class PayloadEncodingNode: Encoder {
    enum Kind { case empty, single, keyed, unkeyed }

    private(set) var kind = Kind.empty
    /// The single value (tagged), or the entries of a keyed or unkeyed container.
    var content: [UInt8] = []
    /// Entries (keyed) or elements (unkeyed) written.
    var count = 0
    /// Separate nodes to splice into `content` at their offsets, in order.
    private var deferred: [(offset: Int, node: PayloadEncodingNode)] = []
    /// The first misuse of this encoder (a second single value, mixed container kinds), thrown
    /// when the node is written out.
    private var failure: EncodingError?

    private let parent: PayloadEncodingNode?
    private let key: (any CodingKey)?

    init(parent: PayloadEncodingNode?, key: (any CodingKey)?) {
        self.parent = parent
        self.key = key
    }

    var codingPath: [any CodingKey] {
        var path: [any CodingKey] = []
        var node: PayloadEncodingNode? = self
        while let current = node {
            if let key = current.key { path.append(key) }
            node = current.parent
        }
        return path.reversed()
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        begin(.keyed, reusable: true)
        return KeyedEncodingContainer(PayloadKeyedEncodingContainer<Key>(node: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        begin(.unkeyed, reusable: true)
        return PayloadUnkeyedEncodingContainer(node: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        PayloadSingleValueEncodingContainer(node: self)
    }

    /// Marks this node as holding `kind`; asking again for the same container kind is allowed (a
    /// subclass and its superclass share one), anything else is recorded as a misuse.
    func begin(_ kind: Kind, reusable: Bool) {
        if self.kind == .empty {
            self.kind = kind
        } else if self.kind != kind || !reusable {
            fail("\(kind == .single ? "a single value" : "a container") requested after this value was already encoded")
        }
    }

    func fail(_ message: String) {
        if failure == nil {
            failure = EncodingError.invalidValue(
                Optional<Int>.none as Any, EncodingError.Context(codingPath: codingPath, debugDescription: message))
        }
    }

    /// Writes a key (keyed containers) and counts the entry.
    @inline(__always)
    func writeKey(_ key: some CodingKey) {
        count += 1
        PayloadFormat.appendText(key.stringValue, to: &content)
    }

    /// Writes an entry (its key, when keyed) with `body`, and takes it all back if `body` throws,
    /// so a value whose encoding failed, and whose owner carried on, leaves nothing half-written.
    func writeEntry(key: (some CodingKey)?, _ body: () throws -> Void) rethrows {
        let (mark, marked, deferredMark) = (content.count, count, deferred.count)
        if let key { writeKey(key) } else { count += 1 }
        do { try body() } catch {
            content.removeSubrange(mark...)
            count = marked
            deferred.removeSubrange(deferredMark...)
            throw error
        }
    }

    /// A node for a nested container, spliced in at the current end of `content`.
    func deferredChild(key: any CodingKey, kind: Kind) -> PayloadEncodingNode {
        let child = PayloadEncodingNode(parent: self, key: key)
        if kind != .empty { child.kind = kind }
        deferred.append((content.count, child))
        return child
    }

    @inline(__always) func writeNil() { content.append(PayloadFormat.Tag.null.rawValue) }

    @inline(__always) func write(_ value: Bool) {
        content.append(value ? PayloadFormat.Tag.true.rawValue : PayloadFormat.Tag.false.rawValue)
    }

    @inline(__always) func write(_ value: String) {
        content.append(PayloadFormat.Tag.string.rawValue)
        PayloadFormat.appendText(value, to: &content)
    }

    @inline(__always) func write(_ value: Double) {
        content.append(PayloadFormat.Tag.double.rawValue)
        withUnsafeBytes(of: value.bitPattern.littleEndian) { content.append(contentsOf: $0) }
    }

    @inline(__always) func write(signed value: Int64) {
        content.append(PayloadFormat.Tag.int.rawValue)
        PayloadFormat.appendVarint(UInt64(bitPattern: (value << 1) ^ (value >> 63)), to: &content)
    }

    @inline(__always) func write(unsigned value: UInt64) {
        content.append(PayloadFormat.Tag.uint.rawValue)
        PayloadFormat.appendVarint(value, to: &content)
    }

    func write(bytes value: Data) {
        content.append(PayloadFormat.Tag.bytes.rawValue)
        PayloadFormat.appendVarint(UInt64(value.count), to: &content)
        content.append(contentsOf: value)
    }

    /// Writes any `Encodable`: the common scalars directly, anything else through its own
    /// `encode(to:)` into a child node.
    func write<T: Encodable>(_ value: T, key: (any CodingKey)?) throws {
        if T.self == String.self {
            write(value as! String)
        } else if T.self == Int.self {
            write(signed: Int64(value as! Int))
        } else if T.self == Double.self {
            write(value as! Double)
        } else if T.self == Bool.self {
            write(value as! Bool)
        } else if T.self == Data.self {
            write(bytes: value as! Data)
        } else {
            let child = PayloadEncodingNode(parent: self, key: key)
            try value.encode(to: child)
            try child.writeOut(into: &content)
        }
    }

    /// A whole payload: `marker` and `version`, then this node's value.
    ///
    /// NB: a node without deferred nodes (the common case) is written straight into a `Data` of
    /// its exact size: one allocation and one copy of the content, where an array built first and
    /// then copied into a `Data` took two of each.
    func payload(marker: UInt8, version: UInt8) throws -> Data {
        if let failure { throw failure }
        let tag: UInt8?
        switch kind {
        case .single: tag = nil
        case .keyed where deferred.isEmpty: tag = PayloadFormat.Tag.keyed.rawValue
        case .unkeyed where deferred.isEmpty: tag = PayloadFormat.Tag.array.rawValue
        case .empty, .keyed, .unkeyed:
            var out: [UInt8] = []
            out.reserveCapacity(content.count + 64)
            out.append(marker)
            out.append(version)
            try writeOut(into: &out)
            return Data(out)
        }
        let (count, length) = (UInt64(self.count), UInt64(content.count))
        let header = tag == nil ? 0 : 1 + PayloadFormat.varintSize(count) + PayloadFormat.varintSize(length)
        var data = Data(count: 2 + header + content.count)
        data.withUnsafeMutableBytes { raw in
            raw[0] = marker
            raw[1] = version
            var at = 2
            if let tag {
                raw[at] = tag
                at += 1
                at = PayloadFormat.writeVarint(count, into: raw, at: at)
                at = PayloadFormat.writeVarint(length, into: raw, at: at)
            }
            content.withUnsafeBytes { bytes in
                guard let source = bytes.baseAddress, let target = raw.baseAddress, !bytes.isEmpty else { return }
                (target + at).copyMemory(from: source, byteCount: bytes.count)
            }
        }
        return data
    }

    /// Appends this node's value, with its deferred nodes spliced in.
    func writeOut(into out: inout [UInt8]) throws {
        if let failure { throw failure }
        switch kind {
        case .single:
            out.append(contentsOf: content)
        case .empty:
            // NB: a nested value that encoded nothing reads back as an empty keyed container, as
            // `JSONEncoder` writes `{}` for it (a top-level one is refused by ``WatchPayload``).
            out.append(contentsOf: [PayloadFormat.Tag.keyed.rawValue, 0, 0])
        case .keyed, .unkeyed:
            let tag = kind == .keyed ? PayloadFormat.Tag.keyed.rawValue : PayloadFormat.Tag.array.rawValue
            if deferred.isEmpty {
                out.append(tag)
                PayloadFormat.appendVarint(UInt64(count), to: &out)
                PayloadFormat.appendVarint(UInt64(content.count), to: &out)
                out.append(contentsOf: content)
            } else {
                // NB: the body is whole before anything reaches `out`, so a deferred node that
                // throws leaves `out` as it was.
                var body: [UInt8] = []
                body.reserveCapacity(content.count + 64)
                var from = 0
                for (offset, node) in deferred {
                    body.append(contentsOf: content[from..<offset])
                    try node.writeOut(into: &body)
                    from = offset
                }
                body.append(contentsOf: content[from...])
                out.append(tag)
                PayloadFormat.appendVarint(UInt64(count), to: &out)
                PayloadFormat.appendVarint(UInt64(body.count), to: &out)
                out.append(contentsOf: body)
            }
        }
    }
}
