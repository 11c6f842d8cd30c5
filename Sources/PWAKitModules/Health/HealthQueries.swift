import Foundation
public import PWAKitCore

/// A date range, and a limit on how many samples to return.
public struct HealthQuery: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The start (inclusive).
    public var startDate: ISODate
    /// The end (exclusive); after `startDate`, at most 366 days later.
    public var endDate: ISODate
    /// The most samples to return (1…10000, default 1000), newest first.
    public var limit: Int?

    /// Creates a query.
    public init(startDate: ISODate, endDate: ISODate, limit: Int? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.limit = limit
    }

    /// A sample query: one day.
    public static let example = HealthQuery(
        startDate: ISODate(parsing: "2026-05-01T00:00:00Z")!, endDate: ISODate(parsing: "2026-05-02T00:00:00Z")!)

    /// The rules.
    public static let fieldNotes = [
        "startDate": "ISO 8601", "endDate": "ISO 8601, after startDate, at most 366 days later",
        "limit": "1…10000, default 1000",
    ]

    /// The range is ordered and at most 366 days; the limit is 1…10000.
    public func validate() throws(BridgeError) {
        try FieldCheck.dateRange(startDate, endDate, "payload")
        try FieldCheck.range(limit, 1...10_000, "payload.limit")
    }

    /// The effective limit.
    public var effectiveLimit: Int { limit ?? 1000 }
}

/// A quantity over a time span.
public struct QuantitySample: Codable, Sendable, Hashable {
    /// The start.
    public var startDate: ISODate
    /// The end.
    public var endDate: ISODate
    /// The amount.
    public var value: Double
    /// The unit of ``value`` (`count` for steps), as the PWAKit project reports it.
    public var unit: String
    /// The quantity (`stepCount`), as the PWAKit project reports it.
    public var quantityType: String

    /// Creates a sample of `quantityType` in `unit`.
    public init(startDate: ISODate, endDate: ISODate, value: Double, unit: String = "count", quantityType: String = "stepCount") {
        self.startDate = startDate
        self.endDate = endDate
        self.value = value
        self.unit = unit
        self.quantityType = quantityType
    }

    /// The sample with `unit` and `type`.
    func labelled(unit: String, type: String) -> QuantitySample {
        QuantitySample(startDate: startDate, endDate: endDate, value: value, unit: unit, quantityType: type)
    }
}

/// The result of `healthkit.querySteps`.
public struct QuantitySamples: Codable, Sendable, Hashable {
    /// The samples.
    public var samples: [QuantitySample]
}

/// The result of `healthkit.queryStepCount`.
public struct StepCount: Codable, Sendable, Hashable {
    /// The total.
    public var count: Int
    /// ``count`` under the PWAKit project's name.
    public private(set) var totalSteps: Int

    /// Creates a result.
    public init(count: Int) {
        self.count = count
        self.totalSteps = count
    }
}

/// One heart-rate reading.
public struct HeartRateSample: Codable, Sendable, Hashable {
    /// When.
    public var date: ISODate
    /// Beats per minute.
    public var bpm: Double
    /// ``bpm`` as the PWAKit project reports a reading: `value` in `unit` (`count/min`) of
    /// `quantityType` (`heartRate`) over `startDate`…`endDate` (both ``date``).
    public private(set) var value: Double
    /// `count/min`.
    public private(set) var unit: String
    /// ``date``.
    public private(set) var startDate: ISODate
    /// ``date``.
    public private(set) var endDate: ISODate
    /// `heartRate`.
    public private(set) var quantityType: String

    /// Creates a sample.
    public init(date: ISODate, bpm: Double) {
        self.date = date
        self.bpm = bpm
        self.value = bpm
        self.unit = "count/min"
        self.startDate = date
        self.endDate = date
        self.quantityType = "heartRate"
    }
}

/// The result of `healthkit.queryHeartRate`.
public struct HeartRateSamples: Codable, Sendable, Hashable {
    /// The readings.
    public var samples: [HeartRateSample]
}
