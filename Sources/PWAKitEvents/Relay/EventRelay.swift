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
/// by id). A batch refused whole (400, 413) is split until the event at fault is alone, and that
/// one is quarantined. One relay runs per buffer at a time, across processes (a file lock).
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
        var report = RelayReport()
        var size = batchSize
        var failures = 0
        while true {
            try Task.checkCancellation()
            let names = try buffer.pending(limit: size)
            let dropReport = try buffer.pendingDropReport()
            guard !names.isEmpty || dropReport != nil else { return report }
            let events = try buffer.read(names)
            let readNames = events.map(\.name)
            report.quarantined += names.count - readNames.count
            if events.isEmpty && dropReport == nil { continue }
            switch try await send(EventBatchRequest(events: events.map(\.event), dropped: dropReport)) {
            case .answered(let answer):
                try buffer.remove(readNames)
                if let dropReport { try buffer.confirmDropReport(dropReport) }
                report.accepted += answer.accepted
                report.duplicates += answer.duplicates
                report.rejected += answer.rejected.count
                report.batches += 1
                failures = 0
                size = batchSize
            case .refusedWhole:
                if readNames.count <= 1 {
                    try buffer.quarantine(readNames)
                    report.quarantined += readNames.count
                    size = batchSize
                } else {
                    size = max(1, readNames.count / 2)
                }
            case .failed(let retryAfter):
                failures += 1
                report.retries += 1
                let backoff = retry.delay(forAttempt: min(failures, 30), unit: jitter())
                try await clock.sleep(for: max(backoff, retryAfter ?? .zero))
            }
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
