import Foundation
public import PWAKitCore

/// A sleep stage.
public enum SleepStage: String, Codable, Sendable, SchemaEnum {
    /// In bed, not asleep.
    case inBed
    /// Awake.
    case awake
    /// Core (light) sleep.
    case core
    /// Deep sleep.
    case deep
    /// REM sleep.
    case rem
}

/// A span of one sleep stage.
public struct SleepSample: Codable, Sendable, Hashable {
    /// The start.
    public var startDate: ISODate
    /// The end.
    public var endDate: ISODate
    /// The stage.
    public var stage: SleepStage
    /// Creates a sample.
    public init(startDate: ISODate, endDate: ISODate, stage: SleepStage) {
        self.startDate = startDate
        self.endDate = endDate
        self.stage = stage
    }
}

/// The result of `healthkit.querySleep`.
public struct SleepSamples: Codable, Sendable, Hashable {
    /// The spans.
    public var samples: [SleepSample]
}
