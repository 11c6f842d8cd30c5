import Foundation
import Testing

@testable import WatchLink

/// The binary payload encoding: every kind of value round trips, JSON payloads still read, and
/// malformed, hostile and oversized bytes fail with `decoding_failed` naming the field.
@Suite struct WatchPayloadTests {
    enum Shape: Codable, Equatable {
        case circle(radius: Double)
        case polygon([Point], closed: Bool)
        case none
    }

    struct Point: Codable, Equatable {
        var x: Int32
        var y: Int32
    }

    struct Everything: Codable, Equatable {
        var text = "héllo, wörld 👋"
        var empty = ""
        var flag = true
        var int = Int.min
        var int8 = Int8.min
        var int16 = Int16.max
        var int32 = Int32.min
        var int64 = Int64.max
        var uint = UInt.max
        var uint8 = UInt8.max
        var uint16 = UInt16.max
        var uint32 = UInt32.max
        var uint64 = UInt64.max
        var double = -0.1
        var float: Float = 3.25
        var infinity = Double.infinity
        var data = Data([0, 1, 2, 255])
        var date = Date(timeIntervalSince1970: 1_700_000_000.5)
        var url = URL(string: "https://example.com/a?b=c")!
        var id = UUID()
        var missing: String? = nil
        var present: String? = "here"
        var nestedOptional: [Int?] = [1, nil, 3]
        var list = [Point(x: 1, y: -1), Point(x: .max, y: .min)]
        var byName = ["a": 1, "b": 2, "": 0]
        var byNumber = [7: "seven", -1: "minus one"]
        var shapes: [Shape] = [.circle(radius: 2), .polygon([Point(x: 0, y: 0)], closed: true), .none]
        var matrix: [[UInt8]] = [[], [1], [2, 3]]
        var large = String(repeating: "x", count: 100_000)
    }

    /// A class hierarchy coding its superclass through `superEncoder()`.
    class Base: Codable {
        var name = "base"
        init() {}
    }

    final class Derived: Base, @unchecked Sendable {
        var extra = 42
        enum Keys: String, CodingKey { case extra }

        override init() { super.init() }

        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            extra = try container.decode(Int.self, forKey: .extra)
            try super.init(from: container.superDecoder())
        }

        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try super.encode(to: container.superEncoder())
            try container.encode(extra, forKey: .extra)
        }
    }

    /// Writes two nested containers alternately, so neither is finished before the other.
    struct Interleaved: Codable, Equatable {
        var left: [Int]
        var right: [String]
        enum Keys: String, CodingKey { case left, right }

        init(left: [Int], right: [String]) {
            self.left = left
            self.right = right
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Keys.self)
            left = try container.decode([Int].self, forKey: .left)
            right = try container.decode([String].self, forKey: .right)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var left = container.nestedUnkeyedContainer(forKey: .left)
            var right = container.nestedUnkeyedContainer(forKey: .right)
            for (l, r) in zip(self.left, self.right) {
                try left.encode(l)
                try right.encode(r)
            }
        }
    }

    /// A recursive value, for nesting limits.
    final class Chain: Codable {
        var next: Chain?
        init(depth: Int) { next = depth > 0 ? Chain(depth: depth - 1) : nil }
    }

    struct Named: Codable, Equatable {
        var items: [Item]
        struct Item: Codable, Equatable { var name: String; var count: UInt8 }
    }

    func failure<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> WatchLinkError? {
        do {
            _ = try WatchPayload.decode(T.self, from: Data(bytes))
            return nil
        } catch { return error }
    }

    @Test func everyKindOfValueRoundTrips() throws {
        let value = Everything()
        let data = try WatchPayload.encode(value)
        #expect(data.first == PayloadFormat.marker)
        let back = try WatchPayload.decode(Everything.self, from: data)
        #expect(back == value)
        #expect(
            try WatchPayload.decode(Interleaved.self, from: WatchPayload.encode(Interleaved(left: [1, 2], right: ["a", "b"])))
                == Interleaved(left: [1, 2], right: ["a", "b"]))
        let derived = try WatchPayload.decode(Derived.self, from: WatchPayload.encode(Derived()))
        #expect(derived.extra == 42 && derived.name == "base")
        #expect(try WatchPayload.decode(Double.self, from: WatchPayload.encode(Double.nan)).isNaN)
        #expect(try WatchPayload.decode(Double.self, from: WatchPayload.encode(-0.0)).sign == .minus)
        #expect(try WatchPayload.decode(String?.self, from: WatchPayload.encode(String?.none)) == nil)
        #expect(try WatchPayload.decode([String: [Int]].self, from: WatchPayload.encode([String: [Int]]())) == [:])
    }

    /// The bytes of `value` as the general path writes them: an array, the deferred nodes spliced in.
    static func generalBytes<T: Encodable>(_ value: T) throws -> [UInt8] {
        let root = PayloadEncodingNode(parent: nil, key: nil)
        if PayloadFormat.isScalar(T.self) {
            try root.write(value, key: nil)
            return [PayloadFormat.marker, PayloadFormat.version] + root.content
        }
        try value.encode(to: root)
        var out: [UInt8] = [PayloadFormat.marker, PayloadFormat.version]
        try root.writeOut(into: &out)
        return out
    }

    /// A struct of `count` entries, for counts and lengths whose LEB128 takes one to three bytes.
    struct Wide: Encodable {
        var count: Int
        var filler: Int
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for n in 0..<count {
                try container.encode(String(repeating: "v", count: filler), forKey: Key(stringValue: "k\(n)"))
            }
        }
    }

    /// A value written through a single-value container.
    struct Wrapped: Encodable {
        var inner: [Int]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(inner)
        }
    }

    @Test func aPayloadWrittenInOnePieceIsTheBytesTheGeneralPathWrites() throws {
        func check<T: Encodable>(_ value: T, _ label: String) throws {
            #expect([UInt8](try WatchPayload.encode(value)) == (try Self.generalBytes(value)), "\(label)")
        }
        try check("text", "string")
        try check(String(repeating: "é", count: 10_000), "long string")
        try check(Int.min, "int")
        try check(Data(repeating: 7, count: 300), "data")
        try check(true, "bool")
        try check(-0.5, "double")
        try check(Point(x: 1, y: 2), "small struct")
        try check([1, 2, 3], "array")
        try check([Int](), "empty array")
        try check(Everything(), "everything")
        try check(Interleaved(left: [1, 2], right: ["a", "b"]), "deferred nodes")
        try check(Derived(), "super encoder")
        try check(Wrapped(inner: [4, 5]), "single value")
        for (count, filler) in [(1, 0), (127, 0), (128, 0), (200, 100), (20, 1_000), (3, 20_000)] {
            try check(Wide(count: count, filler: filler), "\(count) entries of \(filler) bytes")
        }
    }

    @Test func itIsSmallerAndReadsJSONToo() throws {
        let value = Named(items: [.init(name: "a", count: 1), .init(name: "b", count: 2)])
        let binary = try WatchPayload.encode(value)
        let json = try JSONEncoder().encode(value)
        #expect(binary.count < json.count)
        #expect(try WatchPayload.decode(Named.self, from: json) == value)
        #expect(throws: WatchLinkError.self) { try WatchPayload.decode(Named.self, from: Data("{".utf8)) }
    }

    @Test func errorsNameTheFieldAtFault() throws {
        struct WrongName: Codable { var items: [Item]; struct Item: Codable { var name: Int; var count: UInt8 } }
        struct TooBig: Codable { var items: [Item]; struct Item: Codable { var name: String; var count: Int } }
        struct Missing: Codable { var other: Int }
        struct Nulled: Encodable {
            enum Keys: String, CodingKey { case items, name, count }
            func encode(to encoder: any Encoder) throws {
                var top = encoder.container(keyedBy: Keys.self)
                var items = top.nestedUnkeyedContainer(forKey: .items)
                var item = items.nestedContainer(keyedBy: Keys.self)
                try item.encodeNil(forKey: .name)
                try item.encode(1, forKey: .count)
            }
        }

        let wrong = try WatchPayload.encode(WrongName(items: [.init(name: 1, count: 1), .init(name: 2, count: 2)]))
        var error = try #require(failure(Named.self, Array(wrong)))
        #expect(error.code == .decodingFailed)
        #expect(error.details["field"] == "payload.items[0].name")

        error = try #require(
            failure(
                Named.self,
                Array(try WatchPayload.encode(TooBig(items: [.init(name: "a", count: 1), .init(name: "b", count: 256)])))))
        #expect(error.details["field"] == "payload.items[1].count")
        #expect(error.message.contains("UInt8"))

        error = try #require(failure(Named.self, Array(try WatchPayload.encode(Missing(other: 1)))))
        #expect(error.details["field"] == "payload.items")

        error = try #require(failure(Named.self, Array(try WatchPayload.encode(Nulled()))))
        #expect(error.details["field"] == "payload.items[0].name")
        #expect(error.message.contains("missing String value"))

        error = try #require(failure(Named.self, Array(try WatchPayload.encode([1, 2]))))
        #expect(error.details["field"] == "payload")
    }

    @Test func malformedHeadersTrailingBytesAndUnknownTagsAreRefused() throws {
        let good = Array(try WatchPayload.encode("text"))
        #expect(failure(String.self, [PayloadFormat.marker])?.code == .decodingFailed)
        #expect(failure(String.self, [PayloadFormat.marker, 9] + good.dropFirst(2))?.message.contains("version 9") == true)
        #expect(failure(String.self, good + [0])?.message.contains("after the value") == true)
        #expect(failure(String.self, [PayloadFormat.marker, PayloadFormat.version, 42])?.message.contains("tag 42") == true)
        // An eleven-byte integer, and a ten-byte one past 64 bits.
        let eleven = [PayloadFormat.marker, PayloadFormat.version, 4] + Array(repeating: 0xFF, count: 10) + [1]
        #expect(failure(UInt64.self, eleven)?.message.contains("overflows 64 bits") == true)
        let past = [PayloadFormat.marker, PayloadFormat.version, 4] + Array(repeating: 0xFF, count: 9) + [2]
        #expect(failure(UInt64.self, past)?.message.contains("overflows 64 bits") == true)
        #expect(
            try WatchPayload.decode(
                UInt64.self,
                from: Data([PayloadFormat.marker, PayloadFormat.version, 4] + Array(repeating: 0xFF, count: 9) + [1])) == .max)
        // Invalid UTF-8 in a string.
        #expect(
            failure(String.self, [PayloadFormat.marker, PayloadFormat.version, 6, 2, 0xC3, 0x28])?.message.contains("UTF-8")
                == true)
    }

    struct Holder<T: Decodable>: Decodable { var inner: T }

    /// A payload of one keyed container holding `value`'s bytes under `inner`, whatever they claim.
    func holding(_ value: [UInt8]) -> [UInt8] {
        let entry: [UInt8] = [5] + Array("inner".utf8) + value
        return [PayloadFormat.marker, PayloadFormat.version, 9, 1, UInt8(entry.count)] + entry
    }

    @Test func lyingLengthsAndCountsInsideAFieldAreNamedThere() throws {
        // An array claiming 2^60 elements in 3 bytes.
        let huge: [UInt8] = [0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x10]
        var error = try #require(failure(Holder<[Int]>.self, holding([8] + huge + [3, 3, 3, 3])))
        #expect(error.details["field"] == "payload.inner")
        #expect(error.message.contains("cannot fit in 3 bytes"))
        // A string claiming more bytes than follow.
        error = try #require(failure(Holder<String>.self, holding([6, 0x80, 0x01, 0x41])))
        #expect(error.details["field"] == "payload.inner")
        #expect(error.message.contains("runs past the end"))
        // An array whose count is smaller, or larger, than its elements.
        error = try #require(failure(Holder<[Int]>.self, holding([8, 1, 4, 3, 2, 3, 4])))
        #expect(error.message.contains("array longer than its 1 elements"))
        error = try #require(failure(Holder<[Int]>.self, holding([8, 3, 4, 3, 2, 3, 4])))
        #expect(error.details["field"] == "payload.inner[2]")
        // A keyed container whose last entry overruns it.
        error = try #require(failure(Holder<Point>.self, holding([9, 2, 6, 1, 0x78, 3, 2, 1, 0x79])))
        #expect(error.details["field"] == "payload.inner.y")
        #expect(error.message.contains("truncated"))
        let whole = holding([9, 2, 8, 1, 0x78, 3, 2, 1, 0x79, 3, 4])
        #expect(try WatchPayload.decode(Holder<Point>.self, from: Data(whole)).inner == Point(x: 1, y: 2))
    }

    @Test func keysRepeatedOrUnknownAndLargeDictionariesReadAsJSONDoes() throws {
        // "x" twice: the last wins, and is listed once.
        let twice: [UInt8] = [
            PayloadFormat.marker, PayloadFormat.version, 9, 3, 12, 1, 0x78, 3, 2, 1, 0x79, 3, 4, 1, 0x78, 3, 6,
        ]
        #expect(try WatchPayload.decode([String: Int].self, from: Data(twice)) == ["x": 3, "y": 2])
        #expect(try WatchPayload.decode(Point.self, from: Data(twice)) == Point(x: 3, y: 2))
        struct Point3: Codable { var x: Int32; var y: Int32; var z: [String] }
        let point3 = try WatchPayload.encode(Point3(x: 1, y: 2, z: ["skipped"]))
        #expect(try WatchPayload.decode(Point.self, from: point3) == Point(x: 1, y: 2))
        let large = Dictionary(uniqueKeysWithValues: (0..<20_000).map { ("k\($0)", $0) })
        #expect(try WatchPayload.decode([String: Int].self, from: WatchPayload.encode(large)) == large)
        let byID = [UUID(): 1, UUID(): 2]
        #expect(try WatchPayload.decode([UUID: Int].self, from: WatchPayload.encode(byID)) == byID)
    }

    @Test func theSameValueReadsTheSameFromJSONAndFromBinary() throws {
        var value = Everything()
        value.infinity = 1e300
        let fromJSON = try WatchPayload.decode(Everything.self, from: JSONEncoder().encode(value))
        let fromBinary = try WatchPayload.decode(Everything.self, from: WatchPayload.encode(value))
        #expect(fromJSON == fromBinary)
        #expect(fromBinary == value)
    }

    @Test func edgesOfTheCodableContract() throws {
        // A missing `super` decodes as null, as JSON's.
        struct Probe: Decodable {
            var superIsNull: Bool
            enum Keys: String, CodingKey { case a }
            init(from decoder: any Decoder) throws {
                superIsNull = try decoder.container(keyedBy: Keys.self).superDecoder().singleValueContainer().decodeNil()
            }
        }
        #expect(try WatchPayload.decode(Probe.self, from: WatchPayload.encode(["a": 1])).superIsNull)
        // A Float out of range is refused, naming the field.
        let error = try #require(failure(Holder<Float>.self, Array(try WatchPayload.encode(["inner": 1e300]))))
        #expect(error.details["field"] == "payload.inner")
        // decodeNil past the end throws, as JSON's.
        struct PastEnd: Decodable {
            init(from decoder: any Decoder) throws {
                var list = try decoder.unkeyedContainer()
                _ = try list.decodeNil()
            }
        }
        #expect(throws: WatchLinkError.self) { _ = try WatchPayload.decode(PastEnd.self, from: WatchPayload.encode([Int]())) }
        // A top-level value that encodes nothing is refused, as JSON's.
        struct Nothing: Encodable { func encode(to encoder: any Encoder) throws {} }
        #expect(throws: WatchLinkError.self) { _ = try WatchPayload.encode(Nothing()) }
        #expect(try WatchPayload.decode([String: [Int]].self, from: WatchPayload.encode(["a": [Int]()])) == ["a": []])
    }

    @Test func aFailedEntryWhoseOwnerCarriesOnLeavesNothingHalfWritten() throws {
        struct Refused: Error {}
        struct Fails: Encodable {
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: PayloadKey.self)
                try keyed.encode(1, forKey: PayloadKey(stringValue: "partial"))
                throw Refused()
            }
        }
        struct CarriesOn: Encodable {
            func encode(to encoder: any Encoder) throws {
                var keyed = encoder.container(keyedBy: PayloadKey.self)
                try? keyed.encode(Fails(), forKey: PayloadKey(stringValue: "a"))
                try keyed.encode(2, forKey: PayloadKey(stringValue: "b"))
                var list = keyed.nestedUnkeyedContainer(forKey: PayloadKey(stringValue: "list"))
                try? list.encode(Fails())
                try list.encode(3)
            }
        }
        struct Read: Decodable, Equatable { var b: Int; var list: [Int] }
        let data = try WatchPayload.encode(CarriesOn())
        #expect(try WatchPayload.decode(Read.self, from: data) == Read(b: 2, list: [3]))
        let bytes = Array(data)
        #expect(bytes[2] == PayloadFormat.Tag.keyed.rawValue && bytes[3] == 2)
    }

    @Test func nestingIsBoundedAsJSONDecodersAre() throws {
        let shallow = try WatchPayload.encode(Chain(depth: 100))
        var depth = 0
        var chain: Chain? = try WatchPayload.decode(Chain.self, from: shallow)
        while let next = chain?.next { depth += 1; chain = next }
        #expect(depth == 100)
        let deep = try WatchPayload.encode(Chain(depth: 600))
        let error = try #require(failure(Chain.self, Array(deep)))
        #expect(error.message.contains("deeper than 512"))
    }

    @Test func everyTruncationAndEverySingleByteChangeFailsCleanlyOrDecodes() throws {
        let value = Named(items: [.init(name: "first", count: 1), .init(name: "second", count: 2)])
        let bytes = Array(try WatchPayload.encode(value))
        for end in 0..<bytes.count {
            #expect(failure(Named.self, Array(bytes[0..<end]))?.code == .decodingFailed)
        }
        var decodedChanged = 0
        for index in bytes.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = bytes
                changed[index] ^= flip
                if let error = failure(Named.self, changed) {
                    #expect(error.code == .decodingFailed)
                } else {
                    decodedChanged += 1
                }
            }
        }
        // Changes inside the strings' text or the counts' values still decode; nothing crashed.
        #expect(decodedChanged > 0)
        // Whatever decoded is a value that encodes and decodes back to itself.
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            if let value = try? WatchPayload.decode(Named.self, from: Data(changed)) {
                #expect(try WatchPayload.decode(Named.self, from: WatchPayload.encode(value)) == value)
            }
        }
        #expect(decodedChanged > 0)
    }

    @Test func anEncoderMisusedByItsValueFailsWithoutCrashing() throws {
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(1)
                try single.encode(2)
            }
        }
        struct Mixed: Encodable {
            enum Keys: String, CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(1)
                var keyed = encoder.container(keyedBy: Keys.self)
                try keyed.encode(2, forKey: .a)
            }
        }
        struct Throws: Encodable {
            struct Refused: Error {}
            func encode(to encoder: any Encoder) throws { throw Refused() }
        }
        for value in [Twice() as any Encodable, Mixed(), [Throws()]] {
            #expect(throws: WatchLinkError.self) { _ = try WatchPayload.encode(value) }
        }
    }

    @Test func typedRequestsTravelInTheBinaryEncodingAndErasedHandlersReadThem() async throws {
        let registry = HandlerRegistry()
        try registry.register(Named.self) { request in request }
        let request = Named(items: [.init(name: "x", count: 9)])
        let answer = try await registry.run(Named.typeKey, payload: try WatchPayload.encode(request))
        #expect(answer.first == PayloadFormat.marker)
        #expect(try WatchPayload.decode(Named.self, from: answer) == request)
        // A JSON request, as a peer of the version before sends, is answered in JSON, which it reads.
        let fromJSON = try await registry.run(Named.typeKey, payload: try JSONEncoder().encode(request))
        #expect(fromJSON.first == UInt8(ascii: "{"))
        #expect(try JSONDecoder().decode(Named.self, from: fromJSON) == request)
    }

    /// A fire-and-forget answer is the shared bytes of `WatchAck`, inline and async handlers alike;
    /// a JSON request's is JSON, which an earlier peer reads.
    @Test func fireAndForgetAnswersAreTheSharedAcknowledgement() async throws {
        let registry = HandlerRegistry()
        try registry.register(Ping.self, inline: { _ in WatchAck() })
        try registry.register(LatePing.self) { _ in WatchAck() }
        for key in [Ping.typeKey, LatePing.typeKey] {
            let answer = try await registry.run(key, payload: try WatchPayload.encode(Ping(n: 3)))
            #expect(answer == WireAcknowledgements.value)
            #expect(answer == (try WatchPayload.encode(WatchAck())))
            let fromJSON = try await registry.run(key, payload: try JSONEncoder().encode(Ping(n: 3)))
            #expect(fromJSON.first == UInt8(ascii: "{"))
            #expect(try JSONDecoder().decode(WatchAck.self, from: fromJSON) == WatchAck())
        }
        // NB: the handler still runs, and still decodes its request: a malformed one is refused.
        let malformed = Data([PayloadFormat.marker, PayloadFormat.version, 0xFF])
        await #expect(throws: WatchLinkError.self) { try await registry.run(Ping.typeKey, payload: malformed) }
    }

    struct Ping: WatchFireAndForget {
        static var typeKey: WatchTypeKey { WatchTypeKey("test.ping") }
        var n: Int
    }

    struct LatePing: WatchFireAndForget {
        static var typeKey: WatchTypeKey { WatchTypeKey("test.late-ping") }
        var n: Int
    }
}

extension WatchPayloadTests.Named: WatchRequest {
    static var typeKey: WatchTypeKey { WatchTypeKey("test.named") }
    typealias Response = WatchPayloadTests.Named
}
