#if canImport(HealthKit) && os(iOS)
    import Foundation
    import HealthKit
    import PWAKitCore
    public import PWAKitModules

    /// The ``HealthProvider`` over HealthKit.
    ///
    /// Steps come from step-count samples (and their total from a statistics query, which
    /// de-duplicates overlapping sources), heart rate in beats per minute, workouts with their
    /// active energy (kcal) and distance (m), and sleep analysis samples by stage. HealthKit never
    /// says whether reading was denied: a denied type simply reads as empty.
    ///
    /// NB: every call uses its own `HKHealthStore` (a light handle on the system's store), so the
    /// adapter is a plain value with nothing to share across threads.
    public struct HealthKitStore: HealthProvider {
        /// A provider over the device's health store.
        public init() {}

        /// `HKHealthStore.isHealthDataAvailable()`.
        public func isAvailable() async -> Bool {
            HKHealthStore.isHealthDataAvailable()
        }

        /// Shows the Health permission sheet for the types asked (workouts bring their energy and
        /// distance types with them); true once it has been answered, now or before.
        public func requestAuthorization(_ request: HealthAuthorizationRequest) async throws -> Bool {
            try Self.checkAvailable()
            let read = Set(request.read.flatMap(Self.readTypes))
            let share = Set((request.write ?? []).flatMap(Self.shareTypes))
            do {
                try await HKHealthStore().requestAuthorization(toShare: share, read: read)
            } catch {
                throw Self.bridgeError(error)
            }
            return true
        }

        /// Step-count samples, newest first.
        public func steps(_ query: HealthQuery) async throws -> [QuantitySample] {
            let samples = try await Self.samples(
                .quantitySample(type: HKQuantityType(.stepCount), predicate: Self.range(query)), query)
            return samples.map {
                QuantitySample(
                    startDate: ISODate($0.startDate), endDate: ISODate($0.endDate), value: $0.quantity.doubleValue(for: .count()))
            }
        }

        /// The cumulative sum of steps in the range (`HKStatisticsQuery`).
        public func stepCount(_ query: HealthQuery) async throws -> Int {
            try Self.checkAvailable()
            let descriptor = HKStatisticsQueryDescriptor(
                predicate: .quantitySample(type: HKQuantityType(.stepCount), predicate: Self.range(query)),
                options: .cumulativeSum)
            do {
                let sum = try await descriptor.result(for: HKHealthStore())?.sumQuantity()?.doubleValue(for: .count())
                return Int((sum ?? 0).rounded())
            } catch {
                throw Self.bridgeError(error)
            }
        }

        /// Heart-rate samples in beats per minute, newest first.
        public func heartRate(_ query: HealthQuery) async throws -> [HeartRateSample] {
            let perMinute = HKUnit.count().unitDivided(by: .minute())
            let samples = try await Self.samples(
                .quantitySample(type: HKQuantityType(.heartRate), predicate: Self.range(query)), query)
            return samples.map { HeartRateSample(date: ISODate($0.startDate), bpm: $0.quantity.doubleValue(for: perMinute)) }
        }

        /// Workouts, newest first.
        public func workouts(_ query: HealthQuery) async throws -> [Workout] {
            let workouts = try await Self.samples(.workout(Self.range(query)), query)
            return workouts.map { workout in
                Workout(
                    type: Self.workoutType(workout.workoutActivityType), startDate: ISODate(workout.startDate),
                    endDate: ISODate(workout.endDate),
                    energyBurned: Self.sum(workout, .activeEnergyBurned, .kilocalorie()),
                    distance: Self.distanceTypes.lazy.compactMap { Self.sum(workout, $0, .meter()) }.first)
            }
        }

        /// Sleep-analysis samples by stage, newest first.
        public func sleep(_ query: HealthQuery) async throws -> [SleepSample] {
            let samples = try await Self.samples(
                .categorySample(type: HKCategoryType(.sleepAnalysis), predicate: Self.range(query)), query)
            return samples.compactMap { sample in
                Self.stage(sample.value).map {
                    SleepSample(startDate: ISODate(sample.startDate), endDate: ISODate(sample.endDate), stage: $0)
                }
            }
        }

        /// Saves `workout` with `HKWorkoutBuilder`, with its energy and distance as samples.
        public func save(_ workout: Workout) async throws {
            try Self.checkAvailable()
            let start = workout.startDate.date
            let end = workout.endDate.date
            let configuration = HKWorkoutConfiguration()
            configuration.activityType = Self.activityType(workout.type)
            let builder = HKWorkoutBuilder(healthStore: HKHealthStore(), configuration: configuration, device: .local())
            var samples: [HKSample] = []
            if let energy = workout.energyBurned {
                samples.append(
                    HKQuantitySample(
                        type: HKQuantityType(.activeEnergyBurned),
                        quantity: HKQuantity(unit: .kilocalorie(), doubleValue: energy),
                        start: start, end: end))
            }
            if let distance = workout.distance {
                samples.append(
                    HKQuantitySample(
                        type: HKQuantityType(Self.distanceType(workout.type)),
                        quantity: HKQuantity(unit: .meter(), doubleValue: distance), start: start, end: end))
            }
            do {
                try await builder.beginCollection(at: start)
                if !samples.isEmpty { try await builder.addSamples(samples) }
                try await builder.endCollection(at: end)
                _ = try await builder.finishWorkout()
            } catch {
                builder.discardWorkout()
                throw Self.bridgeError(error)
            }
        }

        // MARK: Mapping

        static var distanceTypes: [HKQuantityTypeIdentifier] { [.distanceWalkingRunning, .distanceCycling, .distanceSwimming] }

        static func readTypes(_ type: HealthDataType) -> [HKObjectType] {
            switch type {
            case .steps: [HKQuantityType(.stepCount)]
            case .heartRate: [HKQuantityType(.heartRate)]
            case .sleep: [HKCategoryType(.sleepAnalysis)]
            case .workouts: shareTypes(.workouts) as [HKObjectType]
            }
        }

        /// The types saving a workout writes; validation lets only workouts be written.
        static func shareTypes(_ type: HealthDataType) -> [HKSampleType] {
            guard type == .workouts else { return [] }
            let workout: [HKSampleType] = [HKObjectType.workoutType(), HKQuantityType(.activeEnergyBurned)]
            return workout + distanceTypes.map { HKQuantityType($0) as HKSampleType }
        }

        static func range(_ query: HealthQuery) -> NSPredicate {
            HKQuery.predicateForSamples(withStart: query.startDate.date, end: query.endDate.date, options: .strictStartDate)
        }

        /// Samples matching `predicate`, newest first, at most `query.effectiveLimit`.
        static func samples<Sample: HKSample>(_ predicate: HKSamplePredicate<Sample>, _ query: HealthQuery) async throws
            -> [Sample]
        {
            try checkAvailable()
            let descriptor = HKSampleQueryDescriptor(
                predicates: [predicate], sortDescriptors: [SortDescriptor(\.endDate, order: .reverse)],
                limit: query.effectiveLimit)
            do {
                return try await descriptor.result(for: HKHealthStore())
            } catch {
                throw bridgeError(error)
            }
        }

        static func sum(_ workout: HKWorkout, _ type: HKQuantityTypeIdentifier, _ unit: HKUnit) -> Double? {
            workout.statistics(for: HKQuantityType(type))?.sumQuantity()?.doubleValue(for: unit)
        }

        static func stage(_ value: Int) -> SleepStage? {
            guard let stage = HKCategoryValueSleepAnalysis(rawValue: value) else { return nil }
            switch stage {
            case .inBed: return .inBed
            case .awake: return .awake
            // NB: "asleep, stage unknown" (older watches, other apps) reads as core sleep.
            case .asleepUnspecified, .asleepCore: return .core
            case .asleepDeep: return .deep
            case .asleepREM: return .rem
            @unknown default: return nil
            }
        }

        static func workoutType(_ type: HKWorkoutActivityType) -> WorkoutType {
            switch type {
            case .running: .running
            case .walking: .walking
            case .cycling: .cycling
            case .swimming: .swimming
            case .hiking: .hiking
            case .yoga: .yoga
            case .traditionalStrengthTraining, .functionalStrengthTraining: .strengthTraining
            default: .other
            }
        }

        static func activityType(_ type: WorkoutType) -> HKWorkoutActivityType {
            switch type {
            case .running: .running
            case .walking: .walking
            case .cycling: .cycling
            case .swimming: .swimming
            case .hiking: .hiking
            case .yoga: .yoga
            case .strengthTraining: .traditionalStrengthTraining
            case .other: .other
            }
        }

        static func distanceType(_ type: WorkoutType) -> HKQuantityTypeIdentifier {
            switch type {
            case .cycling: .distanceCycling
            case .swimming: .distanceSwimming
            default: .distanceWalkingRunning
            }
        }

        static func checkAvailable() throws {
            guard HKHealthStore.isHealthDataAvailable() else {
                throw BridgeError(.module("healthkit", "unavailable"), "this device has no health store")
            }
        }

        /// `healthkit.unavailable` and `healthkit.not_authorized` for HealthKit's own reasons;
        /// anything else is a module error.
        static func bridgeError(_ error: any Error) -> BridgeError {
            guard let error = error as? HKError else { return BridgeError(.moduleError, error.localizedDescription) }
            switch error.code {
            case .errorHealthDataUnavailable, .errorHealthDataRestricted:
                return BridgeError(.module("healthkit", "unavailable"), error.localizedDescription)
            case .errorAuthorizationDenied, .errorAuthorizationNotDetermined:
                return BridgeError(.module("healthkit", "not_authorized"), error.localizedDescription)
            default:
                return BridgeError(.moduleError, error.localizedDescription)
            }
        }
    }
#endif
