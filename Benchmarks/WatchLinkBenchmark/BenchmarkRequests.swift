import WatchLink

/// The request both the floor and WatchLink move: a small payload echoed back.
struct Echo: WatchRequest {
    static var typeKey: WatchTypeKey { WatchTypeKey("bench.echo") }
    typealias Response = Echo
    var text: String
}

/// A durable fire-and-forget record.
struct Record: WatchFireAndForget {
    static var typeKey: WatchTypeKey { WatchTypeKey("bench.record") }
    var text: String
}

/// Asks the watch process what its log has written so far, so a durable send's records are
/// counted on both sides.
struct WatchLogStatistics: WatchRequest {
    static var typeKey: WatchTypeKey { WatchTypeKey("bench.log-statistics") }
    typealias Response = LogStatistics
}

/// A log's counters (``FileStore/Statistics``) as they travel.
struct LogStatistics: Codable, Sendable {
    var records = 0
    var bytes = 0
    var syncs = 0

    init(records: Int = 0, bytes: Int = 0, syncs: Int = 0) {
        self.records = records
        self.bytes = bytes
        self.syncs = syncs
    }

    init(_ statistics: FileStore.Statistics) {
        self.init(records: statistics.records, bytes: statistics.bytes, syncs: statistics.syncs)
    }

    static func - (lhs: LogStatistics, rhs: LogStatistics) -> LogStatistics {
        LogStatistics(records: lhs.records - rhs.records, bytes: lhs.bytes - rhs.bytes, syncs: lhs.syncs - rhs.syncs)
    }
}
