import Foundation
public import PWAKitAPI
import PWAKitFiles
public import PWAKitRetry

/// Sends the events of an ``EventBuffer`` to the platform server (`POST /v1/events`) in batches,
/// and deletes each only after the server accounted for it.
///
/// A failed batch (no answer, a timeout, 408, 429, 5xx) is sent again after a backoff that honours
/// `Retry-After`, for as long as it takes: the queue is never dropped after some number of
/// failures (the buffer's own limits bound it, with counted drops). A batch the server answered
/// but whose answer was lost is sent again and the server stores nothing twice (it keys events
/// by id). A batch refused whole (400, 413, 422) is sent again one event at a time, and an
/// event refused on its own is counted as dropped. One relay runs per buffer at a time, across processes (a file lock).
public actor EventRelay {
    /// The buffer sent from.
    public nonisolated let buffer: EventBuffer
    private let client: APIClient
    private let accessToken: @Sendable () async throws -> String?
    private let clock: any Clock<Duration>
    private let retry: RetryPolicy
    private let jitter: @Sendable () -> Double
    /// The most events in one batch.
    public nonisolated let batchSize: Int
    private let relayLock: FileLock
    private var wakeUps: AsyncStream<Void>.Continuation?

    /// Creates a relay.
    ///
    /// - Parameters:
    ///   - accessToken: a valid access token of the signed-in user, refreshed as needed; `nil`
    ///     when nobody is signed in (the events then wait).
    ///   - clock: what backoffs sleep on.
    ///   - retry: the backoff between failed attempts; its attempt bound is ignored (the relay never gives up).
    public init(
        buffer: EventBuffer, client: APIClient, accessToken: @escaping @Sendable () async throws -> String?,
        clock: any Clock<Duration> = ContinuousClock(), retry: RetryPolicy = .eventRelay, batchSize: Int = 100,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) throws(EventBufferError) {
        self.buffer = buffer
        self.client = client
        self.accessToken = accessToken
        self.clock = clock
        self.retry = retry
        self.jitter = jitter
        self.batchSize = min(max(1, batchSize), EventRules.maximumBatch)
        do {
            relayLock = try FileLock(path: buffer.directory.appendingPathComponent("relay.lock").path)
        } catch {
            throw EventBufferError(.storageFailed, "the relay lock cannot be opened: \(error)")
        }
    }

    /// Sends every event queued until the queue is empty, waiting out failures; returns what it did.
    ///
    /// Waits (on the clock) while another relay holds the buffer.
    ///
    /// - Throws: `not_signed_in` (the events stay queued); `CancellationError`; `storage_failed`.
    public func flush() async throws -> RelayReport {
        while try !relayLock.tryLock() { try await clock.sleep(for: .milliseconds(250)) }
        defer { relayLock.unlock() }
        try buffer.seal()
        try buffer.recoverAbandoned()
        try buffer.enforceLimits()
        var report = RelayReport()
        var failures = 0
        while true {
            try Task.checkCancellation()
            // Whole chunks, oldest first, up to the batch size (at least one chunk).
            var chunks: [(name: String, events: [EventPayload], unreadable: Int)] = []
            var total = 0
            for name in try buffer.sealedChunks() {
                guard chunks.isEmpty || total + EventBuffer.eventCount(ofChunk: name) <= batchSize else { break }
                guard let contents = try buffer.read(chunk: name) else { continue }
                chunks.append((name, contents.events, contents.unreadable))
                total += contents.events.count
            }
            let dropReport = try buffer.pendingDropReport()
            guard !chunks.isEmpty || dropReport != nil else { return report }
            let events = chunks.flatMap(\.events)
            var outcome = Outcome.answered(EventBatchResponse(accepted: 0, duplicates: 0, rejected: []))
            // NB: a chunk may hold more events than a batch; it goes in parts and is deleted after the last.
            for start in stride(from: 0, to: max(events.count, 1), by: batchSize) {
                let part = Array(events[min(start, events.count)..<min(start + batchSize, events.count)])
                outcome = try await send(EventBatchRequest(events: part, dropped: start == 0 ? dropReport : nil))
                guard case .answered(let answer) = outcome else { break }
                report.accepted += answer.accepted
                report.duplicates += answer.duplicates
                report.rejected += answer.rejected.count
                report.batches += 1
            }
            switch outcome {
            case .answered:
                for chunk in chunks {
                    try buffer.remove(chunk: chunk.name, dropped: chunk.unreadable)
                    report.quarantined += chunk.unreadable
                }
                if let dropReport { try buffer.confirmDropReport(dropReport) }
                failures = 0
            case .refusedWhole:
                // NB: one event the server cannot read must not hold back the others: each is sent on its own.
                for chunk in chunks {
                    var refused = chunk.unreadable
                    for event in chunk.events {
                        switch try await sendWithRetries(EventBatchRequest(events: [event]), failures: &failures, report: &report)
                        {
                        case .answered(let answer):
                            report.accepted += answer.accepted
                            report.duplicates += answer.duplicates
                            report.rejected += answer.rejected.count
                            report.batches += 1
                        case .refusedWhole, .failed:
                            refused += 1
                        }
                    }
                    try buffer.remove(chunk: chunk.name, dropped: refused)
                    report.quarantined += refused
                }
            case .failed(let retryAfter):
                failures += 1
                report.retries += 1
                try await clock.sleep(for: backoff(failures, retryAfter: retryAfter))
            }
        }
    }

    private func backoff(_ failures: Int, retryAfter: Duration?) -> Duration {
        max(retry.delay(forAttempt: min(failures, 30), unit: jitter()), retryAfter ?? .zero)
    }

    /// Sends one request until it is answered or refused whole, backing off between failures.
    private func sendWithRetries(_ batch: EventBatchRequest, failures: inout Int, report: inout RelayReport) async throws
        -> Outcome
    {
        while true {
            let outcome = try await send(batch)
            guard case .failed(let retryAfter) = outcome else { return outcome }
            failures += 1
            report.retries += 1
            try await clock.sleep(for: backoff(failures, retryAfter: retryAfter))
        }
    }

    /// Flushes now and whenever ``wake()`` is called or `interval` passes, until the task is
    /// cancelled; a flush that finds nobody signed in waits for the next wake-up.
    public func run(interval: Duration = .seconds(30)) async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        wakeUps = continuation
        defer { wakeUps = nil }
        let clock = clock
        let ticker = Task {
            while !Task.isCancelled {
                try await clock.sleep(for: interval)
                continuation.yield()
            }
        }
        defer { ticker.cancel() }
        var iterator = stream.makeAsyncIterator()
        while !Task.isCancelled {
            do {
                _ = try await flush()
            } catch let error as EventBufferError where error.code == .notSignedIn {}
            guard await iterator.next() != nil else { return }
        }
        throw CancellationError()
    }

    /// Asks a running ``run(interval:)`` to flush now (new events, a sign-in, the network back).
    public func wake() { wakeUps?.yield() }

    enum Outcome {
        case answered(EventBatchResponse)
        case refusedWhole
        case failed(retryAfter: Duration?)
    }

    private func send(_ batch: EventBatchRequest) async throws -> Outcome {
        let body = try APIClient.encode(batch)
        for attempt in 0..<2 {
            guard let token = try await accessToken() else {
                throw EventBufferError(.notSignedIn, "nobody is signed in; the events wait in the buffer")
            }
            let response: HTTPResponseData
            do {
                response = try await client.exchange(
                    "POST", "/v1/events", body: body, credential: .bearer(token), idempotent: false)
            } catch let error as APIClientError where error.isTransient {
                return .failed(retryAfter: nil)
            }
            switch response.status {
            case 200..<300:
                guard let answer = try? APIClient.decode(EventBatchResponse.self, from: response.body) else {
                    return .failed(retryAfter: nil)
                }
                return .answered(answer)
            case 401 where attempt == 0:
                continue  // NB: the token may have expired in flight; the provider refreshes it.
            case 401:
                throw EventBufferError(.notSignedIn, "the server refused the session; the events wait in the buffer")
            case 400, 413, 422:
                return .refusedWhole
            default:
                return .failed(retryAfter: Self.retryAfter(response.header("Retry-After"), now: Date()))
            }
        }
        return .failed(retryAfter: nil)
    }

    /// The wait a `Retry-After` value asks for: delay-seconds or an HTTP date; at most an hour.
    static func retryAfter(_ value: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return .seconds(min(seconds, 3600)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .seconds(min(max(0, Int(date.timeIntervalSince(now).rounded(.up))), 3600))
    }
}

extension RetryPolicy {
    /// The event relay's backoff: 1 s doubling to 5 minutes, jittered, never giving up.
    public static let eventRelay = RetryPolicy(initialDelay: .seconds(1), maximumDelay: .seconds(300))
}
