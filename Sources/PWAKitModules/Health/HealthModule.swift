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
