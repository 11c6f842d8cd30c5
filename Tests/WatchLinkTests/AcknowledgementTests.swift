import Foundation
import PWAKitRetry
import PWAKitTesting
import Synchronization
import Testing

@testable import WatchLink

/// Cumulative acknowledgements: the frame, its hostile forms, the shell's gathering, and the
/// sender settling a group with one record.
@Suite struct AcknowledgementTests {
    typealias H = EngineHarness

    static func id(_ n: Int) -> UUID { UUID.fromBytes([UInt8](repeating: UInt8(truncatingIfNeeded: n), count: 16)) }

    static func acknowledgements(_ count: Int = 3, floor: UInt64? = 7) -> WireAcknowledgements {
        WireAcknowledgements(
            entries: (1...count).map { WireAcknowledgements.Entry(requestID: id($0), idempotencyKey: "key-\($0)") },
            createdAt: WatchTimestamp(milliseconds: 5000), incarnation: LinkIncarnation(boot: 2, nonce: 99), floor: floor)
    }

    /// A success answering a fire-and-forget request, stamped as the engine stamps it.
    static func ack(_ n: Int, floor: UInt64? = 1, incarnation: LinkIncarnation? = LinkIncarnation(boot: 1, nonce: 5))
        -> WireResponse
    {
        var response = WireResponse(
            requestID: id(n), idempotencyKey: "key-\(n)", outcome: .success(WireAcknowledgements.value),
            createdAt: WatchTimestamp(milliseconds: 1000 + Int64(n)))
        response.incarnation = incarnation
        response.floor = floor
        return response
    }

    // MARK: The frame

    @Test func aFrameRoundTripsInBothEncodings() throws {
        for floor in [UInt64?.none, 7] {
            let frame = WireFrame.acknowledgements(Self.acknowledgements(floor: floor))
            #expect(try WireCodec.decode(WireCodec.encode(frame)) == frame)
            #expect(try WireCodec.decode(WireCodec.encodeJSON(frame)) == frame)
        }
        let responses = Self.acknowledgements().responses
        #expect(responses.map(\.requestID) == [Self.id(1), Self.id(2), Self.id(3)])
        #expect(responses.allSatisfy { $0.outcome == .success(WireAcknowledgements.value) && $0.floor == 7 })
    }

    @Test func onlyASuccessWithTheBinaryAckCanTravelAsAnEntry() throws {
        #expect(WireAcknowledgements.canCarry(Self.ack(1)))
        #expect(try WatchPayload.decode(WatchAck.self, from: WireAcknowledgements.value) == WatchAck())
        var json = Self.ack(1)
        json.value = Data("{}".utf8)
        #expect(!WireAcknowledgements.canCarry(json), "a JSON answer, to a peer that sent JSON, stays a response")
        #expect(
            !WireAcknowledgements.canCarry(
                WireResponse(
                    requestID: Self.id(1), idempotencyKey: "k", outcome: .success(Data()), createdAt: .init(milliseconds: 0))))
        let failure = WireResponse(
            requestID: Self.id(1), idempotencyKey: "k", outcome: .failure(WatchLinkError(.handlerFailed, "no")),
            createdAt: .init(milliseconds: 0))
        #expect(!WireAcknowledgements.canCarry(failure))
    }

    @Test func everyTruncationIsRefusedNamingAField() {
        let data = WireCodec.encode(.acknowledgements(Self.acknowledgements()))
        for cut in 3..<data.count {
            do {
                _ = try WireCodec.decode(data.prefix(cut))
                Issue.record("a frame cut at \(cut) of \(data.count) bytes decoded")
            } catch {
                #expect(error.code == .invalidEnvelope)
                #expect(error.details["field"]?.hasPrefix("acknowledgements.") == true, "\(error)")
            }
        }
        #expect(throws: WatchLinkError.self) { try WireCodec.decode(data + [0]) }
    }

    @Test func hostileFramesAreRefusedNamingTheField() throws {
        func field(_ bytes: [UInt8]) -> String? {
            do {
                _ = try WireCodec.decode(Data(bytes))
                return nil
            } catch { return error.details["field"] }
        }
        let header: [UInt8] = [WireBinary.marker, UInt8(WireFrame.protocolVersion), WireBinary.Kind.acknowledgements.rawValue]
        let time = [UInt8](repeating: 0, count: 8)
        // A count of four billion entries in a frame of a few bytes: refused, nothing reserved.
        #expect(field(header + [0] + time + [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]) == "acknowledgements.entries")
        #expect(field(header + [0] + time + [0]) == "acknowledgements.entries", "no entries")
        // Twenty entries claimed, thirty bytes left: refused before any room is reserved for them.
        #expect(field(header + [0] + time + [20] + [UInt8](repeating: 1, count: 30)) == "acknowledgements.entries")
        #expect(field(header + [0x01] + time + [0]) == "acknowledgements.flags", "a value flag")
        var long = ByteWriter(capacity: 256)
        long.uuid(Self.id(1))
        long.string(String(repeating: "k", count: 129))
        #expect(field(header + [0] + time + [1] + long.bytes) == "acknowledgements.entries[0].idem")
        var empty = ByteWriter(capacity: 32)
        empty.uuid(Self.id(1))
        empty.string("")
        #expect(field(header + [0] + time + [1] + empty.bytes) == "acknowledgements.entries[0].idem")
        var invalid = ByteWriter(capacity: 32)
        invalid.uuid(Self.id(1))
        invalid.data(Data([0xFF, 0xFE]))
        #expect(field(header + [0] + time + [1] + invalid.bytes) == "acknowledgements.entries.idem", "invalid UTF-8")
        #expect(field(Array(#"{"v":1,"kind":"acknowledgements"}"#.utf8)) == "acknowledgements")
        #expect(
            field(Array(#"{"v":1,"kind":"acknowledgements","acknowledgements":{"entries":[],"at":1}}"#.utf8))
                == "acknowledgements.entries")
    }

    @Test func everySingleByteChangeIsDecodedOrRefusedNeverTrusted() {
        let data = [UInt8](WireCodec.encode(.acknowledgements(Self.acknowledgements())))
        var refused = 0
        for index in data.indices {
            for flip: UInt8 in [0x01, 0x80, 0xFF] {
                var changed = data
                changed[index] ^= flip
                do {
                    let frame = try WireCodec.decode(Data(changed))
                    // NB: a change inside an id, a key or the time still reads; what it reads must be valid.
                    guard case .acknowledgements(let read) = frame else { continue }
                    #expect(!read.entries.isEmpty && read.entries.allSatisfy { (1...128).contains($0.idempotencyKey.utf8.count) })
                } catch { refused += 1 }
            }
        }
        #expect(refused > 0)
    }

    // MARK: Gathering

    @Test func gatheringSendsOneFramePerChannelWhereTheLastAcknowledgementStood() throws {
        let other = Data([1, 2, 3])
        let actions: [LinkAction] = [
            .persist(.inboxFinished(Self.ack(1), deadline: H.t0)), .sync, .acknowledge(.message, Self.ack(1, floor: 3)),
            .send(.message, other, purpose: .response), .acknowledge(.userInfo, Self.ack(9)),
            .persist(.inboxFinished(Self.ack(2), deadline: H.t0)), .sync, .acknowledge(.message, Self.ack(2, floor: 2)),
            .event(.activated),
        ]
        let gathered = LinkAction.gatheringAcknowledgements(actions)
        #expect(gathered.count == actions.count - 1)
        #expect(!gathered.contains { if case .acknowledge = $0 { true } else { false } })
        #expect(gathered[0] == actions[0] && gathered[1] == .sync && gathered[2] == .send(.message, other, purpose: .response))
        guard case .send(.userInfo, let lone, .response) = gathered[3], case .response(let response) = try WireCodec.decode(lone)
        else {
            Issue.record("a lone acknowledgement goes as its response: \(gathered[3])")
            return
        }
        #expect(response == Self.ack(9))
        #expect(gathered[4] == actions[5] && gathered[5] == .sync, "no answer moves ahead of a record or sync")
        guard case .send(.message, let data, .response) = gathered[6],
            case .acknowledgements(let frame) = try WireCodec.decode(data)
        else {
            Issue.record("no acknowledgement frame after the last sync: \(gathered[6])")
            return
        }
        #expect(frame.entries.map(\.requestID) == [Self.id(1), Self.id(2)])
        #expect(frame.floor == 3 && frame.createdAt == WatchTimestamp(milliseconds: 1002))
        #expect(frame.incarnation == LinkIncarnation(boot: 1, nonce: 5))
        #expect(gathered[7] == .event(.activated))
        let plain: [LinkAction] = [.sync, .send(.message, other, purpose: .response)]
        #expect(LinkAction.gatheringAcknowledgements(plain) == plain)
    }

    @Test func answersOfAnotherIncarnationGoInAFrameOfTheirOwn() throws {
        let later = LinkIncarnation(boot: 2, nonce: 6)
        let gathered = LinkAction.gatheringAcknowledgements([
            .acknowledge(.message, Self.ack(1)), .acknowledge(.message, Self.ack(2, incarnation: later)),
            .acknowledge(.message, Self.ack(3)),
        ])
        let frames = try gathered.map { action -> WireFrame in
            guard case .send(_, let data, _) = action else { throw WatchLinkError(.invalidEnvelope, "not a send") }
            return try WireCodec.decode(data)
        }
        #expect(frames.count == 2)
        #expect(frames.contains(.response(Self.ack(2, incarnation: later))))
        #expect(frames.contains { if case .acknowledgements(let a) = $0 { a.entries.count == 2 } else { false } })
    }

    @Test func noFramePassesTheChannelLimit() throws {
        let key = String(repeating: "k", count: 128)
        let actions: [LinkAction] = (0..<2000).map { n in
            var response = Self.ack(n)
            response.requestID = UUID()
            response.idempotencyKey = key
            return .acknowledge(.message, response)
        }
        var ids: [UUID] = []
        var frames = 0
        for action in LinkAction.gatheringAcknowledgements(actions) {
            guard case .send(.message, let data, _) = action, case .acknowledgements(let frame) = try WireCodec.decode(data)
            else {
                Issue.record("not an acknowledgement frame")
                continue
            }
            #expect(data.count <= SessionLimits.message)
            frames += 1
            ids += frame.entries.map(\.requestID)
        }
        #expect(frames > 1)
        #expect(ids == actions.map { if case .acknowledge(_, let r) = $0 { r.requestID } else { UUID() } })
    }

    // MARK: The engines

    /// Five durable fire-and-forget requests, answered in one group: one frame, and at the sender
    /// one settlement record for all five, one sync, then the five completions.
    @Test func aGroupOfAnswersSettlesWithOneRecordAndOneSync() throws {
        var phone = H.engine(.phone)
        var watch = H.engine(.watch)
        var submitted: [LinkAction] = []
        var requests: [WireRequest] = []
        for n in 1...5 {
            var request = H.request(n)
            request.isFireAndForget = true
            requests.append(request)
            submitted += phone.submit(request, strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        }
        var answers: [LinkAction] = []
        for (_, data) in H.sends(submitted) {
            for call in H.runs(watch.receive(data, on: .message, now: H.t0)) {
                answers += watch.handlerFinished(
                    idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(WireAcknowledgements.value),
                    now: H.t0)
            }
        }
        let frames = H.sends(answers)
        #expect(frames.count == 1)
        let settled = phone.receive(try #require(frames.first).1, on: .message, now: H.t0)
        let ids = requests.map(\.requestID)
        #expect(H.records(settled) == [.outboxAcknowledged(ids)])
        let sync = try #require(settled.firstIndex(of: .sync))
        #expect(settled.firstIndex { if case .persist = $0 { true } else { false } }! < sync)
        #expect(H.completions(settled).map(\.0) == ids)
        #expect(H.completions(settled).allSatisfy { $0.1 == .success(WireAcknowledgements.value) })
        #expect(settled.lastIndex { if case .complete = $0 { true } else { false } }! > sync)
        #expect(phone.pendingCount == 0)
        #expect(phone.receive(frames[0].1, on: .userInfo, now: H.t0).isEmpty, "a duplicate frame settles nothing again")

        var restarted = LinkEngine(origin: .phone, random: SeededRandom(seed: 9))
        _ = restarted.recover(from: H.records(submitted) + H.records(settled), receivedContext: nil, now: H.t0)
        #expect(restarted.pendingCount == 0, "a restart does not resurrect them")
        var unsynced = LinkEngine(origin: .phone, random: SeededRandom(seed: 9))
        _ = unsynced.recover(from: H.records(submitted), receivedContext: nil, now: H.t0)
        #expect(unsynced.pendingRequestIDs == ids, "a crash before the record's sync sends them again")
    }

    @Test func anAcknowledgementOfACancelledRequestIsReportedLateAndAnUnknownOneIgnored() throws {
        var phone = H.engine(.phone)
        var request = H.request(1)
        request.isFireAndForget = true
        _ = phone.submit(request, strategy: .messageWithUserInfoFallback, retry: .standard, now: H.t0)
        _ = phone.cancel(request.requestID, now: H.t0)
        var frame = Self.acknowledgements(1, floor: nil)
        frame.entries = [
            WireAcknowledgements.Entry(requestID: request.requestID, idempotencyKey: request.idempotencyKey),
            WireAcknowledgements.Entry(requestID: Self.id(200), idempotencyKey: "unknown"),
        ]
        let late = phone.receive(WireCodec.encode(.acknowledgements(frame)), on: .message, now: H.t0)
        #expect(late.contains(.event(.lateResponseDropped(request.requestID))))
        #expect(H.records(late).isEmpty && H.completions(late).isEmpty && !late.contains(.sync))
        #expect(phone.peerIncarnation == frame.incarnation)
    }

    // MARK: Two connections

    /// Posts answered by a typed handler travel as acknowledgements, lone or gathered: each post
    /// settles once, in the sender's log by one record or another, and runs once.
    @Test func postsBetweenTwoConnectionsSettleOnceEach() async throws {
        let (phoneSession, watchSession) = InMemorySession.makePair()
        let phoneStore = InMemoryStore()
        let clock = ManualClock()
        let phone = WatchConnection(
            origin: .phone, session: phoneSession, store: phoneStore, clock: clock, random: SeededRandom(seed: 1))
        let watch = WatchConnection(
            origin: .watch, session: watchSession, store: InMemoryStore(), clock: clock, random: SeededRandom(seed: 2))
        let runs = Mutex(0)
        try watch.register(Note.self) { _ in
            runs.withLock { $0 += 1 }
            return WatchAck()
        }
        try await watch.start()
        try await phone.start()
        let results = try await phone.post(contentsOf: (0..<24).map { Note(body: "n\($0)") }, strategy: .messageOnly)
        let ids = results.compactMap { try? $0.get() }
        #expect(ids.count == 24)
        await eventually { phone.status.pendingCount == 0 }
        var settled: [UUID] = []
        for record in phoneStore.load() {
            switch record {
            case .outboxSettled(let id, let response):
                #expect(response.value == WireAcknowledgements.value)
                settled.append(id)
            case .outboxAcknowledged(let group): settled += group
            default: break
            }
        }
        #expect(settled.sorted { $0.uuidString < $1.uuidString } == ids.sorted { $0.uuidString < $1.uuidString })
        #expect(runs.withLock { $0 } == 24)
        await phone.stop()
        await watch.stop()
    }

    @Test func theRecordRoundTripsAndRefusesAForgedCount() throws {
        let record = DurableRecord.outboxAcknowledged([Self.id(1), Self.id(2)])
        let bytes = RecordCodec.encode(record)
        #expect(try RecordCodec.decode(bytes[...], json: JSONDecoder()) == record)
        var forged = Array(bytes.prefix(2))
        forged += [0xFF, 0xFF, 0xFF, 0xFF, 0x0F]
        #expect(throws: WatchLinkError.self) { try RecordCodec.decode(forged[...], json: JSONDecoder()) }
        #expect(throws: WatchLinkError.self) { try RecordCodec.decode(bytes.dropLast(), json: JSONDecoder()) }
        #expect(throws: WatchLinkError.self) { try RecordCodec.decode((bytes + [0])[...], json: JSONDecoder()) }
    }
}
