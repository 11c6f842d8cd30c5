import Foundation

/// The keyed container of a ``PayloadEncodingNode``: entries appended in the order written.
struct PayloadKeyedEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: PayloadEncodingNode

    var codingPath: [any CodingKey] { node.codingPath }

    mutating func encodeNil(forKey key: Key) throws { node.writeKey(key); node.writeNil() }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.writeKey(key); node.write(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.writeKey(key); node.write(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.writeKey(key); node.write(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { node.writeKey(key); node.write(Double(value)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { node.writeKey(key); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { node.writeKey(key); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { node.writeKey(key); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { node.writeKey(key); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { node.writeKey(key); node.write(signed: value) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { node.writeKey(key); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { node.writeKey(key); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { node.writeKey(key); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { node.writeKey(key); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { node.writeKey(key); node.write(unsigned: value) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try node.writeEntry(key: key) { try node.write(value, key: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        node.writeKey(key)
        return KeyedEncodingContainer(
            PayloadKeyedEncodingContainer<NestedKey>(node: node.deferredChild(key: key, kind: .keyed)))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        node.writeKey(key)
        return PayloadUnkeyedEncodingContainer(node: node.deferredChild(key: key, kind: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder {
        let key = PayloadKey(stringValue: "super")
        node.writeKey(key)
        return node.deferredChild(key: key, kind: .empty)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        node.writeKey(key)
        return node.deferredChild(key: key, kind: .empty)
    }
}

/// The unkeyed container of a ``PayloadEncodingNode``.
struct PayloadUnkeyedEncodingContainer: UnkeyedEncodingContainer {
    let node: PayloadEncodingNode

    var codingPath: [any CodingKey] { node.codingPath }
    var count: Int { node.count }

    private func next() -> PayloadKey {
        defer { node.count += 1 }
        return PayloadKey(intValue: node.count)
    }

    mutating func encodeNil() throws { node.count += 1; node.writeNil() }
    mutating func encode(_ value: Bool) throws { node.count += 1; node.write(value) }
    mutating func encode(_ value: String) throws { node.count += 1; node.write(value) }
    mutating func encode(_ value: Double) throws { node.count += 1; node.write(value) }
    mutating func encode(_ value: Float) throws { node.count += 1; node.write(Double(value)) }
    mutating func encode(_ value: Int) throws { node.count += 1; node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int8) throws { node.count += 1; node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int16) throws { node.count += 1; node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int32) throws { node.count += 1; node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int64) throws { node.count += 1; node.write(signed: value) }
    mutating func encode(_ value: UInt) throws { node.count += 1; node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { node.count += 1; node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { node.count += 1; node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { node.count += 1; node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { node.count += 1; node.write(unsigned: value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = PayloadKey(intValue: node.count)
        try node.writeEntry(key: PayloadKey?.none) { try node.write(value, key: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(PayloadKeyedEncodingContainer<NestedKey>(node: node.deferredChild(key: next(), kind: .keyed)))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        PayloadUnkeyedEncodingContainer(node: node.deferredChild(key: next(), kind: .unkeyed))
    }

    mutating func superEncoder() -> any Encoder { node.deferredChild(key: next(), kind: .empty) }
}

/// The single-value container of a ``PayloadEncodingNode``: one value, once.
struct PayloadSingleValueEncodingContainer: SingleValueEncodingContainer {
    let node: PayloadEncodingNode

    var codingPath: [any CodingKey] { node.codingPath }

    private func begin() { node.begin(.single, reusable: false) }

    mutating func encodeNil() throws { begin(); node.writeNil() }
    mutating func encode(_ value: Bool) throws { begin(); node.write(value) }
    mutating func encode(_ value: String) throws { begin(); node.write(value) }
    mutating func encode(_ value: Double) throws { begin(); node.write(value) }
    mutating func encode(_ value: Float) throws { begin(); node.write(Double(value)) }
    mutating func encode(_ value: Int) throws { begin(); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int8) throws { begin(); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int16) throws { begin(); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int32) throws { begin(); node.write(signed: Int64(value)) }
    mutating func encode(_ value: Int64) throws { begin(); node.write(signed: value) }
    mutating func encode(_ value: UInt) throws { begin(); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt8) throws { begin(); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt16) throws { begin(); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt32) throws { begin(); node.write(unsigned: UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { begin(); node.write(unsigned: value) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        begin()
        let mark = node.content.count
        do { try node.write(value, key: nil) } catch {
            node.content.removeSubrange(mark...)
            throw error
        }
    }
}

/// A coding key made from a string or an index: `super`, and array positions in coding paths.
struct PayloadKey: CodingKey {
    private let text: String?
    let intValue: Int?

    // NB: an index's text made only when a path is printed, not for every element.
    var stringValue: String { text ?? String(intValue ?? 0) }

    init(stringValue: String) {
        self.text = stringValue
        self.intValue = nil
    }

    init(intValue: Int) {
        self.text = nil
        self.intValue = intValue
    }
}
