import Foundation

/// The compact binary encoding of request, response and acknowledgement envelopes.
///
/// A frame is a marker byte (never `{`, so it cannot be mistaken for JSON), the protocol
/// version, the frame kind, then the envelope's fields in a fixed order. The request id and
/// idempotency key come first so a receiver can still answer a request whose later fields are
/// broken. Contexts stay JSON: they are rare and carry user state.
enum WireBinary {
    /// The first byte of every binary frame.
    static let marker: UInt8 = 0xB7

    enum Kind: UInt8 {
        case request = 1
        case response = 2
        case acknowledgements = 3
    }

    struct RequestFlags: OptionSet {
        let rawValue: UInt8
        static let fireAndForget = RequestFlags(rawValue: 1 << 0)
        static let durable = RequestFlags(rawValue: 1 << 1)
        static let sequence = RequestFlags(rawValue: 1 << 2)
        static let floor = RequestFlags(rawValue: 1 << 3)
        static let target = RequestFlags(rawValue: 1 << 4)
        static let serial = RequestFlags(rawValue: 1 << 5)
    }

    struct ResponseFlags: OptionSet {
        let rawValue: UInt8
        static let value = ResponseFlags(rawValue: 1 << 0)
        static let error = ResponseFlags(rawValue: 1 << 1)
        static let incarnation = ResponseFlags(rawValue: 1 << 2)
        static let floor = ResponseFlags(rawValue: 1 << 3)
    }

    static func encode(_ request: WireRequest) -> Data {
        var counter = ByteCounter()
        write(request, into: &counter)
        return frame(.request, size: counter.count) { write(request, into: &$0) }
    }

    static func encode(_ response: WireResponse) -> Data {
        var counter = ByteCounter()
        write(response, into: &counter)
        return frame(.response, size: counter.count) { write(response, into: &$0) }
    }

    static func encode(_ acknowledgements: WireAcknowledgements) -> Data {
        var counter = ByteCounter()
        write(acknowledgements, into: &counter)
        return frame(.acknowledgements, size: counter.count) { write(acknowledgements, into: &$0) }
    }

    /// A frame of `kind` whose fields, `size` bytes counted beforehand, `fields` writes: into a
    /// `Data` of that exact size (one allocation and one copy of each field, where an array built
    /// first and then copied into a `Data` took two of each).
    private static func frame(_ kind: Kind, size: Int, _ fields: (inout RawByteWriter) -> Void) -> Data {
        var data = Data(count: 3 + size)
        data.withUnsafeMutableBytes { raw in
            var out = RawByteWriter(raw)
            out.byte(marker)
            out.byte(UInt8(WireFrame.protocolVersion))
            out.byte(kind.rawValue)
            fields(&out)
            precondition(out.offset == raw.count, "a frame's fields wrote other than they counted")
        }
        return data
    }

    /// Appends a request's fields (no frame header).
    static func write(_ request: WireRequest, into out: inout some ByteSink) {
        out.uuid(request.requestID)
        out.string(request.idempotencyKey)
        out.string(request.typeKey.rawValue)
        out.data(request.payload)
        var flags: RequestFlags = []
        if request.isFireAndForget { flags.insert(.fireAndForget) }
        if request.isDurable { flags.insert(.durable) }
        if request.sequence != nil { flags.insert(.sequence) }
        if request.floor != nil { flags.insert(.floor) }
        if request.target != nil { flags.insert(.target) }
        if request.runsInArrivalOrder { flags.insert(.serial) }
        out.byte(flags.rawValue)
        out.int64(request.createdAt.milliseconds)
        out.int64(request.deadline.milliseconds)
        out.int64(Int64(request.attempt))
        if let sequence = request.sequence { out.uint64(sequence) }
        if let floor = request.floor { out.uint64(floor) }
        if let target = request.target {
            out.uint64(target.boot)
            out.uint64(target.nonce)
        }
    }

    /// Appends a response's fields (no frame header).
    static func write(_ response: WireResponse, into out: inout some ByteSink) {
        out.uuid(response.requestID)
        out.string(response.idempotencyKey)
        var flags: ResponseFlags = []
        if response.value != nil { flags.insert(.value) }
        if response.error != nil { flags.insert(.error) }
        if response.incarnation != nil { flags.insert(.incarnation) }
        if response.floor != nil { flags.insert(.floor) }
        out.byte(flags.rawValue)
        out.int64(response.createdAt.milliseconds)
        if let value = response.value { out.data(value) }
        if let error = response.error {
            out.string(error.code.rawValue)
            out.string(error.message)
            out.length(error.details.count)
            for key in error.details.keys.sorted() {
                out.string(key)
                out.string(error.details[key]!)
            }
        }
        if let incarnation = response.incarnation {
            out.uint64(incarnation.boot)
            out.uint64(incarnation.nonce)
        }
        if let floor = response.floor { out.uint64(floor) }
    }

    /// Appends an acknowledgement frame's fields (no frame header): the response's flags (only
    /// `incarnation` and `floor` apply), its time, incarnation and floor, then the entries.
    static func write(_ acknowledgements: WireAcknowledgements, into out: inout some ByteSink) {
        var flags: ResponseFlags = []
        if acknowledgements.incarnation != nil { flags.insert(.incarnation) }
        if acknowledgements.floor != nil { flags.insert(.floor) }
        out.byte(flags.rawValue)
        out.int64(acknowledgements.createdAt.milliseconds)
        if let incarnation = acknowledgements.incarnation {
            out.uint64(incarnation.boot)
            out.uint64(incarnation.nonce)
        }
        if let floor = acknowledgements.floor { out.uint64(floor) }
        out.length(acknowledgements.entries.count)
        for entry in acknowledgements.entries {
            out.uuid(entry.requestID)
            out.string(entry.idempotencyKey)
        }
    }

    /// Reads the fields ``write(_:into:)`` wrote for an acknowledgement frame.
    static func readAcknowledgements(_ reader: inout ByteReader) throws(WatchLinkError) -> WireAcknowledgements {
        let flags = ResponseFlags(rawValue: try reader.byte("flags"))
        guard flags.isSubset(of: [.incarnation, .floor]) else { throw reader.failure("flags", "unknown flags") }
        let createdAt = WatchTimestamp(milliseconds: try reader.int64("at"))
        var incarnation: LinkIncarnation?
        if flags.contains(.incarnation) {
            incarnation = LinkIncarnation(boot: try reader.uint64("from"), nonce: try reader.uint64("from"))
        }
        let floor = flags.contains(.floor) ? try reader.uint64("floor") : nil
        // NB: an entry is at least its id and its key's length (an empty key is read, then refused
        // by validation, which names it).
        let count = try reader.count("entries", minimumSize: 17)
        var entries: [WireAcknowledgements.Entry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let id = try reader.uuid("entries.id")
            entries.append(WireAcknowledgements.Entry(requestID: id, idempotencyKey: try reader.string("entries.idem")))
        }
        return WireAcknowledgements(entries: entries, createdAt: createdAt, incarnation: incarnation, floor: floor)
    }

    /// Decodes a binary frame, read in place; fields are checked by the envelopes' own validation afterwards.
    static func decode(_ data: Data) throws(WatchLinkError) -> WireFrame {
        // NB: `withUnsafeBytes` rethrows untyped errors; the typed one travels in a `Result`.
        try data.withUnsafeBytes { bytes in Result { () throws(WatchLinkError) in try decode(bytes) } }.get()
    }

    /// Decodes a binary frame from bytes lent for the call.
    static func decode(_ bytes: UnsafeRawBufferPointer) throws(WatchLinkError) -> WireFrame {
        guard bytes.count >= 3 else {
            throw WatchLinkError(.invalidEnvelope, "unreadable frame: truncated header", details: ["field": "v"])
        }
        guard Int(bytes[1]) == WireFrame.protocolVersion else {
            throw WatchLinkError(
                .unsupportedVersion,
                "protocol version \(bytes[1]) is not supported; this build speaks \(WireFrame.protocolVersion)",
                details: ["field": "v"])
        }
        switch Kind(rawValue: bytes[2]) {
        case .request?:
            var reader = ByteReader(bytes, offset: 3, scope: "request")
            let request = try readRequest(&reader)
            guard reader.isAtEnd else { throw reader.failure("to", "trailing bytes") }
            return .request(request)
        case .response?:
            var reader = ByteReader(bytes, offset: 3, scope: "response")
            let response = try readResponse(&reader)
            guard reader.isAtEnd else { throw reader.failure("floor", "trailing bytes") }
            return .response(response)
        case .acknowledgements?:
            var reader = ByteReader(bytes, offset: 3, scope: "acknowledgements")
            let acknowledgements = try readAcknowledgements(&reader)
            guard reader.isAtEnd else { throw reader.failure("entries", "trailing bytes") }
            return .acknowledgements(acknowledgements)
        case nil:
            throw WatchLinkError(.invalidEnvelope, "unknown frame kind \(bytes[2])", details: ["field": "kind"])
        }
    }

    /// Reads the fields ``write(_:into:)`` wrote for a request.
    static func readRequest(_ reader: inout ByteReader) throws(WatchLinkError) -> WireRequest {
        let id = try reader.uuid("id")
        let key = try reader.string("idem")
        let type = try reader.string("type")
        let payload = try reader.data("payload")
        let flags = RequestFlags(rawValue: try reader.byte("flags"))
        let createdAt = try reader.int64("at")
        let deadline = try reader.int64("deadline")
        let attempt = try reader.int64("attempt")
        guard attempt >= 0, attempt <= Int64(Int32.max) else { throw reader.failure("attempt", "out of range") }
        let sequence = flags.contains(.sequence) ? try reader.uint64("seq") : nil
        let floor = flags.contains(.floor) ? try reader.uint64("floor") : nil
        var target: LinkIncarnation?
        if flags.contains(.target) { target = LinkIncarnation(boot: try reader.uint64("to"), nonce: try reader.uint64("to")) }
        return WireRequest(
            typeKey: WatchTypeKey(type), payload: payload, requestID: id, idempotencyKey: key,
            isFireAndForget: flags.contains(.fireAndForget), isDurable: flags.contains(.durable),
            createdAt: WatchTimestamp(milliseconds: createdAt), deadline: WatchTimestamp(milliseconds: deadline),
            sequence: sequence, floor: floor, attempt: Int(attempt), target: target,
            runsInArrivalOrder: flags.contains(.serial))
    }

    /// Reads the fields ``write(_:into:)`` wrote for a response.
    static func readResponse(_ reader: inout ByteReader) throws(WatchLinkError) -> WireResponse {
        let id = try reader.uuid("id")
        let key = try reader.string("idem")
        let flags = ResponseFlags(rawValue: try reader.byte("flags"))
        let createdAt = WatchTimestamp(milliseconds: try reader.int64("at"))
        var response = WireResponse(requestID: id, idempotencyKey: key, outcome: .success(Data()), createdAt: createdAt)
        response.value = flags.contains(.value) ? try reader.data("value") : nil
        if flags.contains(.error) {
            let code = try reader.string("error.code")
            let message = try reader.string("error.message")
            let count = try reader.length("error.details")
            var details: [String: String] = [:]
            for _ in 0..<count {
                let name = try reader.string("error.details")
                details[name] = try reader.string("error.details")
            }
            response.error = WatchLinkError(WatchLinkError.Code(code), message, details: details)
        }
        if flags.contains(.incarnation) {
            response.incarnation = LinkIncarnation(boot: try reader.uint64("from"), nonce: try reader.uint64("from"))
        }
        if flags.contains(.floor) { response.floor = try reader.uint64("floor") }
        return response
    }

    /// The request id and idempotency key of a binary request frame too broken to decode.
    static func salvageRequestID(_ data: Data) -> (UUID, String)? {
        data.withUnsafeBytes { bytes -> (UUID, String)? in
            guard bytes.count >= 3, bytes[2] == Kind.request.rawValue else { return nil }
            var reader = ByteReader(bytes, offset: 3, scope: "request")
            guard let id = try? reader.uuid("id") else { return nil }
            let key = (try? reader.string("idem")).flatMap { $0.isEmpty || $0.utf8.count > 128 ? nil : $0 }
            return (id, key ?? id.text)
        }
    }
}
