import Foundation
public import PWAKitCore

/// A kind of workout.
public enum WorkoutType: String, Codable, Sendable, SchemaEnum {
    /// Running.
    case running
    /// Walking.
    case walking
    /// Cycling.
    case cycling
    /// Swimming.
    case swimming
    /// Hiking.
    case hiking
    /// Yoga.
    case yoga
    /// Strength training.
    case strengthTraining
    /// Elliptical.
    case elliptical
    /// Rowing.
    case rowing
    /// Stair climbing.
    case stairClimbing
    /// Cross training.
    case crossTraining
    /// Mixed cardio.
    case mixedCardio
    /// High-intensity interval training.
    case hiit
    /// Pilates.
    case pilates
    /// Dance.
    case dance
    /// Core training.
    case coreTraining
    /// Functional strength training.
    case functionalStrengthTraining
    /// Traditional strength training.
    case traditionalStrengthTraining
    /// Anything else.
    case other
}

/// A workout: the payload of `healthkit.saveWorkout`.
public struct Workout: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The kind.
    public var type: WorkoutType
    /// The start.
    public var startDate: ISODate
    /// The end.
    public var endDate: ISODate
    /// Active energy in kilocalories.
    public var energyBurned: Double?
    /// Distance in metres.
    public var distance: Double?

    /// Creates a workout.
    public init(type: WorkoutType, startDate: ISODate, endDate: ISODate, energyBurned: Double? = nil, distance: Double? = nil) {
        self.type = type
        self.startDate = startDate
        self.endDate = endDate
        self.energyBurned = energyBurned
        self.distance = distance
    }

    /// The units and ranges.
    public static let fieldNotes = [
        "endDate": "after startDate, at most 7 days later", "energyBurned": "kilocalories, 0…100000",
        "distance": "metres, 0…10000000",
    ]

    /// Ordered dates at most a week apart; non-negative amounts.
    public func validate() throws(BridgeError) {
        try FieldCheck.dateRange(startDate, endDate, "payload", maxDays: 7)
        try FieldCheck.range(energyBurned, 0...100_000, "payload.energyBurned")
        try FieldCheck.range(distance, 0...10_000_000, "payload.distance")
    }
}

/// The payload of `healthkit.queryWorkouts`: a range, and optionally one type of workout.
public struct WorkoutQuery: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The start (inclusive).
    public var startDate: ISODate
    /// The end (exclusive); after `startDate`, at most 366 days later.
    public var endDate: ISODate
    /// The most workouts to return (1…10000, default 1000), newest first.
    public var limit: Int?
    /// Only workouts of this type.
    public var type: WorkoutType?

    /// Creates a query.
    public init(startDate: ISODate, endDate: ISODate, limit: Int? = nil, type: WorkoutType? = nil) {
        self.startDate = startDate
        self.endDate = endDate
        self.limit = limit
        self.type = type
    }

    /// The range and limit.
    public var range: HealthQuery { HealthQuery(startDate: startDate, endDate: endDate, limit: limit) }

    /// A sample query: one day.
    public static let example = WorkoutQuery(startDate: HealthQuery.example.startDate, endDate: HealthQuery.example.endDate)

    /// The rules.
    public static let fieldNotes = HealthQuery.fieldNotes.merging(["type": "only workouts of this type"]) { a, _ in a }

    /// As ``HealthQuery``.
    public func validate() throws(BridgeError) {
        try range.validate()
    }
}

/// A workout as `healthkit.queryWorkouts` answers it: the saved fields, and the duration and
/// energy under the PWAKit project's names.
public struct RecordedWorkout: Codable, Sendable, Hashable {
    /// The kind.
    public var type: WorkoutType
    /// The start.
    public var startDate: ISODate
    /// The end.
    public var endDate: ISODate
    /// Active energy in kilocalories.
    public var energyBurned: Double?
    /// Distance in metres.
    public var distance: Double?
    /// Seconds from start to end.
    public var duration: Double
    /// ``energyBurned`` under the PWAKit project's name.
    public private(set) var calories: Double?

    /// The entry for `workout`.
    public init(_ workout: Workout) {
        self.type = workout.type
        self.startDate = workout.startDate
        self.endDate = workout.endDate
        self.energyBurned = workout.energyBurned
        self.distance = workout.distance
        self.duration = workout.endDate.date.timeIntervalSince(workout.startDate.date)
        self.calories = workout.energyBurned
    }
}

/// The result of `healthkit.queryWorkouts`.
public struct WorkoutList: Codable, Sendable, Hashable {
    /// The workouts, newest first.
    public var workouts: [RecordedWorkout]
}

/// The result of `healthkit.saveWorkout`.
public struct WorkoutSaved: Codable, Sendable, Hashable {
    /// Always true: failures are errors.
    public var saved: Bool
    /// ``saved`` under the PWAKit project's name.
    public private(set) var success: Bool

    /// Creates a result.
    public init(saved: Bool) {
        self.saved = saved
        self.success = saved
    }
}
