import Foundation
import PWAKitRetry

@testable import WatchLink

/// Helpers for driving ``LinkEngine`` by hand in synchronous tests.
enum EngineHarness {
    static let t0 = WatchTimestamp(milliseconds: 1_000_000)

    static func engine(
        _ origin: DeviceOrigin, configuration: LinkEngine.Configuration = LinkEngine.Configuration(), activated: Bool = true,
        reachable: Bool = true
    ) -> LinkEngine {
        var engine = LinkEngine(
            origin: origin, configuration: configuration, random: SeededRandom(seed: origin == .phone ? 1 : 2))
        if activated { _ = engine.activate(now: t0) }
        if reachable { _ = engine.setReachable(true, now: t0) }
        return engine
    }

    static func request(_ n: Int, deadline: Int64 = 30_000, durable: Bool = true, key: String? = nil) -> WireRequest {
        WireRequest(
            typeKey: WatchTypeKey("test.echo"), payload: Data("{\"n\":\(n)}".utf8),
            requestID: UUID.fromBytes([UInt8](repeating: UInt8(n), count: 16)),
            idempotencyKey: key, isDurable: durable, createdAt: t0, deadline: t0.advanced(by: .milliseconds(deadline)))
    }

    static func sends(_ actions: [LinkAction]) -> [(SessionChannel, Data)] {
        LinkAction.gatheringAcknowledgements(actions).compactMap {
            if case .send(let channel, let data, _) = $0 { (channel, data) } else { nil }
        }
    }

    static func runs(_ actions: [LinkAction]) -> [InboundCall] {
        actions.compactMap { if case .run(let call) = $0 { call } else { nil } }
    }

    static func completions(_ actions: [LinkAction]) -> [(UUID, Result<Data, WatchLinkError>)] {
        actions.compactMap { if case .complete(let id, let outcome) = $0 { (id, outcome) } else { nil } }
    }

    static func records(_ actions: [LinkAction]) -> [DurableRecord] {
        actions.compactMap { if case .persist(let record) = $0 { record } else { nil } }
    }

    static func frames(_ actions: [LinkAction]) -> [WireFrame] {
        sends(actions).compactMap { try? WireCodec.decode($0.1) }
    }

    static func errorCode(_ outcome: Result<Data, WatchLinkError>) -> WatchLinkError.Code? {
        if case .failure(let error) = outcome { error.code } else { nil }
    }
}

/// Two engines wired back to back with an echo handler and no faults, for convergence tests.
struct EnginePair {
    var phone = EngineHarness.engine(.phone)
    var watch = EngineHarness.engine(.watch)
    var now = EngineHarness.t0
    var runs = 0
    var completed: [UUID: Result<Data, WatchLinkError>] = [:]

    mutating func deliver(_ actions: [LinkAction], from origin: DeviceOrigin) {
        var queue: [(DeviceOrigin, LinkAction)] = LinkAction.gatheringAcknowledgements(actions).map { (origin, $0) }
        while !queue.isEmpty {
            let (side, action) = queue.removeFirst()
            var follow: [LinkAction] = []
            switch action {
            case .send(let channel, let data, _):
                follow = side == .phone ? watch.receive(data, on: channel, now: now) : phone.receive(data, on: channel, now: now)
                queue += LinkAction.gatheringAcknowledgements(follow).map { (side.counterpart, $0) }
            case .run(let call):
                runs += 1
                let result: Result<Data, WatchLinkError> = .success(call.payload)
                follow =
                    side == .phone
                    ? phone.handlerFinished(
                        idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: result, now: now)
                    : watch.handlerFinished(
                        idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: result, now: now)
                queue += LinkAction.gatheringAcknowledgements(follow).map { (side, $0) }
            case .complete(let id, let outcome):
                completed[id] = outcome
            default:
                break
            }
        }
    }

    mutating func advance(_ ms: Int64) {
        now = now.advanced(by: .milliseconds(ms))
        deliver(phone.tick(now: now), from: .phone)
        deliver(watch.tick(now: now), from: .watch)
    }
}
