import Foundation
public import PWAKitCore

/// `healthkit` [features.healthkit, off by default]: steps, heart rate, workouts and sleep.
public struct HealthModule: ActionModule {
    /// `healthkit`.
    public static let moduleName = "healthkit"
    /// `healthkit`.
    public static let featureFlag: String? = "healthkit"
    /// One line for the reference.
    public static let summary = "Health data: authorization, steps, heart rate, workouts and sleep, and saving workouts."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("healthkit.unavailable", "This device has no health store."),
        ModuleErrorCode(
            "healthkit.not_authorized",
            "Saving: the user has not allowed writing workouts. (Queries never fail for this: as on HealthKit, a type the user did not allow to be read has no samples.)"
        ),
    ]
    /// The actions.
    public static let actions = ModuleActions<HealthModule>()
        .action("isAvailable", result: HealthAvailability.self, summary: "Whether a health store exists.") { module, _ in
            HealthAvailability(available: await module.provider.isAvailable())
        }
        .action(
            "requestAuthorization", payload: HealthAuthorizationRequest.self, result: HealthAuthorizationResult.self,
            summary: "Asks to read and write the given types (the system never says whether reading was allowed).",
            example: HealthAuthorizationRequest(read: [.steps, .heartRate], write: [.workouts]),
            accepting: PayloadAliases(
                .values("read", map: HealthDataType.pwaKitNames, ignored: HealthDataType.pwaKitUnsupported),
                .values("write", map: HealthDataType.pwaKitNames, ignored: HealthDataType.pwaKitUnsupported),
                .flag("readWorkouts", adds: "workouts", to: "read"), .flag("readSleep", adds: "sleep", to: "read"),
                .flag("writeWorkouts", adds: "workouts", to: "write"))
        ) { module, request, _ in
            HealthAuthorizationResult(requested: try await module.provider.requestAuthorization(request))
        }
        .action(
            "querySteps", payload: HealthQuery.self, result: QuantitySamples.self, summary: "Step samples in the range.",
            example: HealthQuery.example
        ) { module, query, _ in
            QuantitySamples(samples: try await module.provider.steps(query).map { $0.labelled(unit: "count", type: "stepCount") })
        }
        .action(
            "queryStepCount", payload: HealthQuery.self, result: StepCount.self, summary: "The total steps in the range.",
            example: HealthQuery.example
        ) { module, query, _ in
            StepCount(count: try await module.provider.stepCount(query))
        }
        .action(
            "queryHeartRate", payload: HealthQuery.self, result: HeartRateSamples.self,
            summary: "Heart-rate samples (beats per minute) in the range.", example: HealthQuery.example
        ) { module, query, _ in
            HeartRateSamples(samples: try await module.provider.heartRate(query))
        }
        .action(
            "queryWorkouts", payload: WorkoutQuery.self, result: WorkoutList.self,
            summary: "Workouts in the range, of one type when `type` is given.", example: WorkoutQuery.example
        ) { module, query, _ in
            let workouts = try await module.provider.workouts(query.range)
            return WorkoutList(workouts: workouts.filter { query.type == nil || $0.type == query.type }.map(RecordedWorkout.init))
        }
        .action(
            "querySleep", payload: HealthQuery.self, result: SleepSamples.self, summary: "Sleep stages in the range.",
            example: HealthQuery.example
        ) { module, query, _ in
            SleepSamples(samples: try await module.provider.sleep(query))
        }
        .action(
            "saveWorkout", payload: Workout.self, result: WorkoutSaved.self, summary: "Saves a workout.",
            example: Workout(
                type: .running, startDate: ISODate(parsing: "2026-05-01T07:00:00Z")!,
                endDate: ISODate(parsing: "2026-05-01T07:30:00Z")!, energyBurned: 320, distance: 5000),
            accepting: PayloadAliases(.rename("workoutType", to: "type"), .rename("calories", to: "energyBurned"))
        ) { module, workout, _ in
            try await module.provider.save(workout)
            return WorkoutSaved(saved: true)
        }

    let provider: any HealthProvider

    /// Creates the module over `provider`.
    public init(provider: any HealthProvider) {
        self.provider = provider
    }
}

/// A kind of health data.
public enum HealthDataType: String, Codable, Sendable, SchemaEnum {
    /// Step counts.
    case steps
    /// Heart rate.
    case heartRate
    /// Workouts.
    case workouts
    /// Sleep analysis.
    case sleep

    /// The PWAKit project's names for types that are ours under another name.
    public static let pwaKitNames = ["stepCount": "steps"]
    /// The PWAKit project's quantity types this host has no data for: accepted in an authorization
    /// request and ignored, as HealthKit ignores types it does not know.
    public static let pwaKitUnsupported: Set<String> = [
        "distanceWalkingRunning", "distanceCycling", "distanceSwimming", "flightsClimbed", "activeEnergyBurned",
        "basalEnergyBurned", "restingHeartRate", "walkingHeartRateAverage", "heartRateVariability", "bodyMass",
        "bodyMassIndex", "height", "bodyTemperature", "oxygenSaturation", "respiratoryRate", "bloodPressureSystolic",
        "bloodPressureDiastolic", "bloodGlucose", "dietaryWater", "dietaryCaffeine",
    ]
}

/// The result of `healthkit.isAvailable`.
public struct HealthAvailability: Codable, Sendable, Hashable {
    /// Whether a health store exists.
    public var available: Bool
}

/// The payload of `healthkit.requestAuthorization`.
public struct HealthAuthorizationRequest: Codable, Sendable, Hashable, ValidatedPayload {
    /// Types to read (none when absent).
    public var read: [HealthDataType]
    /// Types to write (only `workouts` can be written).
    public var write: [HealthDataType]?

    /// Creates a payload.
    public init(read: [HealthDataType], write: [HealthDataType]? = nil) {
        self.read = read
        self.write = write
    }

    private enum CodingKeys: String, CodingKey { case read, write }

    /// Decodes a payload; an absent `read` reads nothing (a request may only ask to write).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        read = try container.decodeIfPresent([HealthDataType].self, forKey: .read) ?? []
        write = try container.decodeIfPresent([HealthDataType].self, forKey: .write)
    }

    /// At least one type; only workouts are writable.
    public func validate() throws(BridgeError) {
        if read.isEmpty, (write ?? []).isEmpty {
            throw .field(.invalidPayload, path: "payload.read", "name at least one type to read or write")
        }
        for (index, type) in (write ?? []).enumerated() where type != .workouts {
            throw .field(.invalidPayload, path: "payload.write[\(index)]", "only workouts can be written")
        }
    }
}

/// The result of `healthkit.requestAuthorization`.
public struct HealthAuthorizationResult: Codable, Sendable, Hashable {
    /// Whether the prompt was shown (or had been answered before).
    public var requested: Bool
    /// Always true: failures are errors (the PWAKit project's SDK reads it).
    public var success: Bool

    /// Creates a result.
    public init(requested: Bool) {
        self.requested = requested
        self.success = true
    }
}

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
    public var totalSteps: Int

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
    public var value: Double
    /// `count/min`.
    public var unit: String
    /// ``date``.
    public var startDate: ISODate
    /// ``date``.
    public var endDate: ISODate
    /// `heartRate`.
    public var quantityType: String

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
    public var calories: Double?

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
    public var success: Bool

    /// Creates a result.
    public init(saved: Bool) {
        self.saved = saved
        self.success = saved
    }
}

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

/// The health store.
public protocol HealthProvider: Sendable {
    /// Whether a store exists.
    func isAvailable() async -> Bool
    /// Asks for access.
    func requestAuthorization(_ request: HealthAuthorizationRequest) async throws -> Bool
    /// Step samples, newest first, at most `query.effectiveLimit`.
    func steps(_ query: HealthQuery) async throws -> [QuantitySample]
    /// The total steps in the range (every sample, whatever the limit).
    func stepCount(_ query: HealthQuery) async throws -> Int
    /// Heart-rate readings, newest first.
    func heartRate(_ query: HealthQuery) async throws -> [HeartRateSample]
    /// Workouts, newest first.
    func workouts(_ query: HealthQuery) async throws -> [Workout]
    /// Sleep spans, newest first.
    func sleep(_ query: HealthQuery) async throws -> [SleepSample]
    /// Saves `workout`.
    func save(_ workout: Workout) async throws
}
