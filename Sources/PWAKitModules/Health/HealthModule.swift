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
        ModuleErrorCode("healthkit.not_authorized", "The user has not allowed this data type."),
    ]
    /// The actions.
    public static let actions = ModuleActions<HealthModule>()
        .action("isAvailable", result: HealthAvailability.self, summary: "Whether a health store exists.") { module, _ in
            HealthAvailability(available: await module.provider.isAvailable())
        }
        .action(
            "requestAuthorization", payload: HealthAuthorizationRequest.self, result: HealthAuthorizationResult.self,
            summary: "Asks to read and write the given types (the system never says whether reading was allowed).",
            example: HealthAuthorizationRequest(read: [.steps, .heartRate], write: [.workouts])
        ) { module, request, _ in
            HealthAuthorizationResult(requested: try await module.provider.requestAuthorization(request))
        }
        .action(
            "querySteps", payload: HealthQuery.self, result: QuantitySamples.self, summary: "Step samples in the range.",
            example: HealthQuery.example
        ) { module, query, _ in
            QuantitySamples(samples: try await module.provider.steps(query))
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
            "queryWorkouts", payload: HealthQuery.self, result: WorkoutList.self, summary: "Workouts in the range.",
            example: HealthQuery.example
        ) { module, query, _ in
            WorkoutList(workouts: try await module.provider.workouts(query))
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
                endDate: ISODate(parsing: "2026-05-01T07:30:00Z")!, energyBurned: 320, distance: 5000)
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
}

/// The result of `healthkit.isAvailable`.
public struct HealthAvailability: Codable, Sendable, Hashable {
    /// Whether a health store exists.
    public var available: Bool
}

/// The payload of `healthkit.requestAuthorization`.
public struct HealthAuthorizationRequest: Codable, Sendable, Hashable, ValidatedPayload {
    /// Types to read.
    public var read: [HealthDataType]
    /// Types to write (only `workouts` can be written).
    public var write: [HealthDataType]?

    /// Creates a payload.
    public init(read: [HealthDataType], write: [HealthDataType]? = nil) {
        self.read = read
        self.write = write
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
    /// Creates a sample.
    public init(startDate: ISODate, endDate: ISODate, value: Double) {
        self.startDate = startDate
        self.endDate = endDate
        self.value = value
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
}

/// One heart-rate reading.
public struct HeartRateSample: Codable, Sendable, Hashable {
    /// When.
    public var date: ISODate
    /// Beats per minute.
    public var bpm: Double
    /// Creates a sample.
    public init(date: ISODate, bpm: Double) {
        self.date = date
        self.bpm = bpm
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
    /// Anything else.
    case other
}

/// A workout: the payload of `healthkit.saveWorkout` and an entry of `queryWorkouts`.
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

/// The result of `healthkit.queryWorkouts`.
public struct WorkoutList: Codable, Sendable, Hashable {
    /// The workouts.
    public var workouts: [Workout]
}

/// The result of `healthkit.saveWorkout`.
public struct WorkoutSaved: Codable, Sendable, Hashable {
    /// Always true: failures are errors.
    public var saved: Bool
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
