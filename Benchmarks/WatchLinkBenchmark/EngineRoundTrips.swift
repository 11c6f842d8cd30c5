import Foundation
import PWAKitRetry
import WatchLink

/// The engines alone: a phone's and a watch's `LinkEngine` in one thread, a non-durable request
/// and its answer passed between them as the connection would (no I/O, no user payload coding).
/// Says how much of a round trip's CPU is the engines' bookkeeping.
enum EngineRoundTrips {
    /// CPU per round trip, in µs, over `count` round trips with `inFlight` outstanding at once
    /// (this thread's CPU time: other threads winding down do not count); `nil` if the engines
    /// stopped short of `count` round trips.
    static func measure(count: Int, inFlight: Int, payload: Data) -> Double? {
        var configuration = LinkEngine.Configuration()
        configuration.outboxLimit = 1_000_000
        var phone = LinkEngine(origin: .phone, configuration: configuration, random: SeededRandom(seed: 1))
        var watch = LinkEngine(origin: .watch, configuration: configuration, random: SeededRandom(seed: 2))
        var now = WatchTimestamp(milliseconds: 1_000_000)
        var ids = SeededRandom(seed: 3)
        func setUp(_ engine: inout LinkEngine) {
            _ = engine.recover(from: [], receivedContext: nil, now: now)
            _ = engine.activate(now: now)
            _ = engine.setReachable(true, now: now)
        }
        setUp(&phone)
        setUp(&watch)
        var toWatch: [Data] = []
        var toPhone: [Data] = []
        var completed = 0
        var submitted = 0
        let start = CPUTime.ofThisThread()
        func sends(_ actions: [LinkAction], into queue: inout [Data]) -> [InboundCall] {
            var calls: [InboundCall] = []
            for action in LinkAction.gatheringAcknowledgements(actions) {
                switch action {
                case .send(_, let data, _): queue.append(data)
                case .run(let call): calls.append(call)
                case .complete: completed += 1
                default: break
                }
            }
            return calls
        }
        func submit() {
            let request = WireRequest(
                typeKey: Echo.typeKey, payload: payload, requestID: ids.uuid(), isDurable: false, createdAt: now,
                deadline: now.advanced(by: .seconds(30)))
            _ = sends(phone.submit(request, strategy: .messageOnly, retry: .standard, now: now), into: &toWatch)
            submitted += 1
        }
        for _ in 0..<min(inFlight, count) { submit() }
        while completed < count {
            now = now.advanced(by: .microseconds(10))
            let arrived = toWatch
            toWatch.removeAll(keepingCapacity: true)
            for data in arrived {
                var calls = sends(watch.receive(data, on: .message, now: now), into: &toPhone)
                while !calls.isEmpty {
                    let call = calls.removeFirst()
                    calls += sends(
                        watch.handlerFinished(
                            idempotencyKey: call.idempotencyKey, requestID: call.requestID, result: .success(call.payload),
                            now: now), into: &toPhone)
                }
            }
            let answers = toPhone
            toPhone.removeAll(keepingCapacity: true)
            for data in answers {
                let before = completed
                _ = sends(phone.receive(data, on: .message, now: now), into: &toWatch)
                for _ in before..<completed where submitted < count { submit() }
            }
            if arrived.isEmpty && answers.isEmpty { break }
        }
        guard completed == count else { return nil }
        return micros(CPUTime.ofThisThread() - start) / Double(count)
    }
}
