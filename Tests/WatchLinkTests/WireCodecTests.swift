import Foundation
import PWAKitRetry
import Testing

@testable import WatchLink

@Suite struct WireCodecTests {
    static let id = UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!

    func request(payload: Data = Data("{}".utf8)) -> WireRequest {
        WireRequest(
            typeKey: WatchTypeKey("app.ping"), payload: payload, requestID: Self.id,
            createdAt: WatchTimestamp(milliseconds: 1000), deadline: WatchTimestamp(milliseconds: 5000))
    }

    @Test func anIDsTextIsItsUUIDString() {
        var random = SystemRandomNumberGenerator()
        var ids = [Self.id, UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))]
        ids.append(UUID(uuid: (255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255)))
        for _ in 0..<1000 {
            let high = random.next() as UInt64
            let low = random.next() as UInt64
            let bytes = (0..<16).map { UInt8(truncatingIfNeeded: ($0 < 8 ? high : low) >> (8 * ($0 % 8))) }
            ids.append(
                UUID(
                    uuid: (
                        bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                        bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
                    )))
        }
        for id in ids { #expect(id.text == id.uuidString) }
        #expect(request().idempotencyKey == "6F9619FF-8B86-D011-B42D-00C04FC964FF")
    }

    /// A seeded UUID is the bytes of the generator's next two values, least significant first, with
    /// the version and variant bits of a random UUID: seeded runs make the same ids as before.
    @Test func aSeededUUIDIsTheBytesOfTwoDraws() {
        var random = SeededRandom(seed: 20_261_127)
        var draws = random
        for _ in 0..<1_000 {
            let (high, low) = (draws.next(), draws.next())
            var bytes = (0..<8).map { UInt8(truncatingIfNeeded: high >> (8 * UInt64($0))) }
            bytes += (0..<8).map { UInt8(truncatingIfNeeded: low >> (8 * UInt64($0))) }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            let id = random.uuid()
            #expect(id == UUID.fromBytes(bytes))
            #expect(id.text == id.uuidString)
        }
    }

    /// A frame as the fields' writer puts it in a growing array.
    static func arrayFrame(_ kind: WireBinary.Kind, _ write: (inout ByteWriter) -> Void) -> [UInt8] {
        var out = ByteWriter(capacity: 0)
        out.byte(WireBinary.marker)
        out.byte(UInt8(WireFrame.protocolVersion))
        out.byte(kind.rawValue)
        write(&out)
        return out.bytes
    }

    @Test func aFrameWrittenInOnePieceIsTheBytesOfItsFields() {
        var full = request(payload: Data(repeating: 9, count: 20_000))
        full.sequence = 7
        full.floor = 3
        full.target = LinkIncarnation(boot: 1, nonce: 2)
        full.isDurable = true
        full.runsInArrivalOrder = true
        for request in [request(), request(payload: Data()), full] {
            #expect([UInt8](WireBinary.encode(request)) == Self.arrayFrame(.request) { WireBinary.write(request, into: &$0) })
        }
        var answered = WireResponse(
            requestID: Self.id, idempotencyKey: "key", outcome: .success(Data(repeating: 1, count: 300)),
            createdAt: WatchTimestamp(milliseconds: 9))
        answered.incarnation = LinkIncarnation(boot: 4, nonce: 5)
        answered.floor = 6
        let refused = WireResponse(
            requestID: Self.id, idempotencyKey: String(repeating: "k", count: 200),
            outcome: .failure(WatchLinkError(.expired, "late", details: ["b": "2", "a": "1"])),
            createdAt: WatchTimestamp(milliseconds: 10))
        for response in [answered, refused] {
            #expect([UInt8](WireBinary.encode(response)) == Self.arrayFrame(.response) { WireBinary.write(response, into: &$0) })
        }
    }

    @Test func requestRoundTrips() throws {
        let frame = WireFrame.request(request())
        #expect(try WireCodec.decode(WireCodec.encode(frame)) == frame)
    }

    /// Binary frames are read where their bytes are: a `Data` that is a slice of a larger one (its
    /// indices not starting at 0) decodes as the whole frame would, a field of no bytes at the very
    /// end reads as empty, and a frame cut anywhere is refused, not read past its end.
    @Test func framesAreReadInPlaceFromSlicesAndToTheirLastByte() throws {
        let frame = WireFrame.request(request(payload: Data()))
        let encoded = WireCodec.encode(frame)
        let padded = Data([0xFF, 0xEE, 0xDD]) + encoded + Data([0xCC])
        let slice = padded[3..<(3 + encoded.count)]
        #expect(slice.startIndex == 3)
        #expect(try WireCodec.decode(slice) == frame)
        #expect(WireCodec.salvageRequestID(slice)?.0 == Self.id)
        // A response whose last field is a value of no bytes.
        let empty = WireFrame.response(
            WireResponse(
                requestID: Self.id, idempotencyKey: "k", outcome: .success(Data()), createdAt: WatchTimestamp(milliseconds: 7)))
        let emptyEncoded = WireCodec.encode(empty)
        #expect(try WireCodec.decode(emptyEncoded) == empty)
        #expect(try WireCodec.decode((Data([1]) + emptyEncoded).dropFirst()) == empty)
        // Every prefix of both frames, read from a slice too, is refused with the field at fault named.
        for bytes in [encoded, emptyEncoded] {
            for count in 0..<bytes.count {
                let cut = (Data([9, 9]) + bytes.prefix(count)).dropFirst(2)
                do {
                    _ = try WireCodec.decode(cut)
                    Issue.record("a frame cut to \(count) of \(bytes.count) bytes decoded")
                } catch {
                    #expect(error.details["field"] != nil)
                }
            }
        }
    }

    @Test func responseAndContextRoundTrip() throws {
        let ok = WireFrame.response(
            WireResponse(
                requestID: Self.id, idempotencyKey: "k", outcome: .success(Data("1".utf8)),
                createdAt: WatchTimestamp(milliseconds: 9)))
        let failed = WireFrame.response(
            WireResponse(
                requestID: Self.id, idempotencyKey: "k", outcome: .failure(WatchLinkError(.timeout, "late", details: ["a": "b"])),
                createdAt: WatchTimestamp(milliseconds: 9)))
        let context = WireFrame.context(WireContext(states: [:], requests: [request()]))
        for frame in [ok, failed, context] { #expect(try WireCodec.decode(WireCodec.encode(frame)) == frame) }
    }

    @Test func encodingIsDeterministic() {
        #expect(WireCodec.encode(.request(request())) == WireCodec.encode(.request(request())))
    }

    @Test(arguments: [
        ("", "invalid_envelope"),
        ("not json", "invalid_envelope"),
        ("[]", "invalid_envelope"),
        ("{\"v\":1}", "invalid_envelope"),
        ("{\"v\":2,\"kind\":\"request\"}", "unsupported_version"),
        ("{\"v\":1,\"kind\":\"bogus\"}", "invalid_envelope"),
        ("{\"v\":1,\"kind\":\"request\"}", "invalid_envelope"),
        (
            "{\"v\":1,\"kind\":\"response\",\"response\":{\"id\":\"6F9619FF-8B86-D011-B42D-00C04FC964FF\",\"idem\":\"k\",\"at\":1}}",
            "invalid_envelope"
        ),
    ])
    func malformedFramesAreRejectedWithACode(text: String, code: String) {
        #expect(throws: WatchLinkError.self) { try WireCodec.decode(Data(text.utf8)) }
        do {
            _ = try WireCodec.decode(Data(text.utf8))
        } catch {
            #expect(error.code.rawValue == code)
        }
    }

    @Test func jsonFramesStillDecode() throws {
        let frame = WireFrame.request(request())
        #expect(WireCodec.encode(frame).first == WireBinary.marker)
        #expect(try WireCodec.decode(WireCodec.encodeJSON(frame)) == frame)
    }

    @Test func binaryFramesCarryEveryField() throws {
        var full = request()
        full.isFireAndForget = true
        full.isDurable = false
        full.sequence = 9
        full.floor = 4
        full.attempt = 3
        full.target = LinkIncarnation(boot: 2, nonce: 0xABCD)
        full.runsInArrivalOrder = true
        var response = WireResponse(
            requestID: Self.id, idempotencyKey: "k",
            outcome: .failure(WatchLinkError(.timeout, "late", details: ["b": "2", "a": "1"])),
            createdAt: WatchTimestamp(milliseconds: -9))
        response.incarnation = LinkIncarnation(boot: 1, nonce: 7)
        response.floor = 5
        for frame in [WireFrame.request(full), .response(response)] {
            let data = WireCodec.encode(frame)
            #expect(data.first == WireBinary.marker)
            #expect(try WireCodec.decode(data) == frame)
        }
    }

    @Test func truncatedBinaryFrameNamesTheFieldAndKeepsItsID() {
        let data = WireCodec.encode(.request(request()))
        for cut in [3, 10, 19, 30, data.count - 1] {
            do {
                _ = try WireCodec.decode(data.prefix(cut))
                Issue.record("expected failure at \(cut)")
            } catch {
                #expect(error.code == .invalidEnvelope)
                #expect(error.details["field"]?.hasPrefix("request.") == true)
            }
        }
        #expect(WireCodec.salvageRequestID(data.prefix(30))?.0 == Self.id)
        #expect(WireCodec.salvageRequestID(data.prefix(10)) == nil)
        var other = [UInt8](data)
        other[1] = 9
        #expect(throws: WatchLinkError.self) { try WireCodec.decode(Data(other)) }
        #expect((try? WireCodec.decode(Data(data + [0]))) == nil)
    }

    @Test func badFieldIsNamed() throws {
        var json = String(decoding: WireCodec.encodeJSON(.request(request())), as: UTF8.self)
        json = json.replacingOccurrences(of: "\"deadline\":5000", with: "\"deadline\":\"soon\"")
        do {
            _ = try WireCodec.decode(Data(json.utf8))
            Issue.record("expected failure")
        } catch {
            #expect(error.code == .invalidEnvelope)
            #expect(error.details["field"] == "request.deadline")
        }
    }

    @Test func semanticChecksNameTheField() {
        var bad = request()
        bad.deadline = WatchTimestamp(milliseconds: 1)
        #expect(throws: WatchLinkError(.invalidEnvelope, "deadline precedes creation", details: ["field": "request.deadline"])) {
            try WireCodec.decode(WireCodec.encode(.request(bad)))
        }
        var badKey = request()
        badKey.typeKey = WatchTypeKey("has space")
        do {
            _ = try WireCodec.decode(WireCodec.encode(.request(badKey)))
            Issue.record("expected failure")
        } catch {
            #expect(error.details["field"] == "request.type")
        }
        var badFloor = request()
        badFloor.sequence = 2
        badFloor.floor = 3
        #expect(throws: WatchLinkError.self) { try WireCodec.decode(WireCodec.encode(.request(badFloor))) }
    }

    @Test func oversizedFrameIsRejectedBeforeParsing() {
        let huge = Data(repeating: 0x20, count: WireCodec.maximumFrameSize + 1)
        do {
            _ = try WireCodec.decode(huge)
            Issue.record("expected failure")
        } catch {
            #expect(error.code == .payloadTooLarge)
        }
    }

    @Test func brokenRequestStillYieldsItsID() {
        let text = "{\"v\":1,\"kind\":\"request\",\"request\":{\"id\":\"\(Self.id.uuidString)\",\"idem\":\"key-1\",\"type\":42}}"
        let salvaged = WireCodec.salvageRequestID(Data(text.utf8))
        #expect(salvaged?.0 == Self.id)
        #expect(salvaged?.1 == "key-1")
        #expect(WireCodec.salvageRequestID(Data("{\"request\":{\"id\":7}}".utf8)) == nil)
        #expect(WireCodec.salvageRequestID(Data("\u{0}\u{1}".utf8)) == nil)
    }

    @Test func hostileNestingDoesNotCrash() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: WatchLinkError.self) { try WireCodec.decode(Data(deep.utf8)) }
        #expect(WireCodec.salvageRequestID(Data(deep.utf8)) == nil)
    }
}
