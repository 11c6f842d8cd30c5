import Foundation
import PWAKitCore

extension SimulatedDevice: HapticsProvider {
    /// Records the impact.
    public func impact(_ style: ImpactStyle) { record("haptics.impact \(style.rawValue)") }
    /// Records the pattern.
    public func notification(_ type: NotificationFeedbackType) { record("haptics.notification \(type.rawValue)") }
    /// Records the tick.
    public func selection() { record("haptics.selection") }
}

extension SimulatedDevice: VibrationProvider {
    /// Records the pattern; the simulated device can vibrate.
    public func vibrate(_ pattern: [Int]) -> Bool {
        record("vibration.vibrate \(pattern.map(String.init).joined(separator: ","))")
        return true
    }
}

extension SimulatedDevice: BadgeProvider {
    /// Records the badge.
    public func setBadge(_ count: Int) {
        badge = count
        record("badge \(count)")
    }
}

extension SimulatedDevice: ShareProvider {
    /// Whether sharing is scripted to exist.
    public func canShare(_ request: ShareRequest) -> Bool { shareAvailable }

    /// The next scripted outcome (shared when none is scripted).
    public func share(_ request: ShareRequest) -> Bool {
        let shared = shareOutcomes.isEmpty ? true : shareOutcomes.removeFirst()
        record("share.share \(shared ? "shared" : "dismissed")")
        return shared
    }
}

extension SimulatedDevice: BiometricsProvider {
    /// The scripted sensor.
    public func availability() -> BiometricAvailability {
        BiometricAvailability(available: biometricsEnrolled && biometryType != .none, biometryType: biometryType)
    }

    /// The next scripted outcome (success when none is scripted).
    public func authenticate(reason: String) -> BiometricFailure? {
        let outcome: BiometricFailure?
        if biometryType == .none {
            outcome = .notAvailable
        } else if !biometricsEnrolled {
            outcome = .notEnrolled
        } else {
            outcome = biometricOutcomes.isEmpty ? nil : biometricOutcomes.removeFirst()
        }
        record("biometrics.authenticate \(outcome?.rawValue ?? "success")")
        return outcome
    }
}

extension SimulatedDevice: PermissionProvider {
    /// The scripted state (`notDetermined` by default).
    public func state(of permission: DevicePermission) -> PermissionState {
        permissions[permission] ?? .notDetermined
    }

    /// Asks the simulated user: the scripted answer, else `granted`. Only an undetermined
    /// permission is asked, as on a real device.
    public func request(_ permission: DevicePermission) -> PermissionState {
        let current = state(of: permission)
        guard current == .notDetermined else { return current }
        let answer = permissionAnswers[permission] ?? .granted
        permissions[permission] = answer
        record("\(permission.rawValue).request \(answer.rawValue)")
        return answer
    }
}

extension SimulatedDevice: AppServicesProvider {
    /// Records the request.
    public func requestReview() -> Bool {
        reviewRequests += 1
        record("app.requestReview")
        return true
    }

    /// The simulated device has no settings screen.
    public func openSettings() throws -> Bool {
        record("app.openSettings unavailable")
        throw BridgeError(.module("app", "settings_unavailable"), "the simulated device has no settings screen")
    }
}

extension SimulatedDevice: StoreProvider {
    /// The scripted products with those ids.
    public func products(ids: [String]) -> [Product] {
        ids.compactMap { id in products.first { $0.id == id } }
    }

    /// The next scripted outcome (purchased when none is scripted).
    public func purchase(productID: String) throws -> PurchaseResult {
        guard let product = products.first(where: { $0.id == productID }) else {
            record("iap.purchase \(productID) not_found")
            throw BridgeError(.module("iap", "product_not_found"), "no product has the id \"\(productID)\"")
        }
        let status = purchaseOutcomes.isEmpty ? .purchased : purchaseOutcomes.removeFirst()
        record("iap.purchase \(productID) \(status.rawValue)")
        guard status == .purchased else { return PurchaseResult(status: status) }
        transactionCounter += 1
        let now = Date()
        let expiry = product.type == .autoRenewable ? ISODate(now.addingTimeInterval(30 * 86_400)) : nil
        let entitlement = Entitlement(
            productId: productID, transactionId: "sim-\(transactionCounter)", purchaseDate: ISODate(now),
            expirationDate: expiry)
        if product.type != .consumable { owned.append(entitlement) }
        return PurchaseResult(status: .purchased, transaction: entitlement)
    }

    /// The owned entitlements.
    public func restore() -> [Entitlement] {
        record("iap.restore")
        return owned
    }

    /// The owned entitlements.
    public func entitlements() -> [Entitlement] { owned }
}

extension SimulatedDevice: HealthProvider {
    /// Whether the script says a store exists.
    public func isAvailable() -> Bool { healthAvailable }

    /// Grants what was asked.
    public func requestAuthorization(_ request: HealthAuthorizationRequest) throws -> Bool {
        try requireHealth()
        healthAuthorized.formUnion(request.read + (request.write ?? []))
        record("healthkit.requestAuthorization \(request.read.map(\.rawValue).joined(separator: ","))")
        return true
    }

    /// Hourly step samples, derived from the hour so that a query always gives the same answer.
    public func steps(_ query: HealthQuery) throws -> [QuantitySample] {
        guard try readable(.steps) else { return [] }
        return Array(hourlySteps(query).prefix(query.effectiveLimit))
    }

    /// The sum of every hourly sample in the range.
    public func stepCount(_ query: HealthQuery) throws -> Int {
        guard try readable(.steps) else { return 0 }
        return Int(hourlySteps(query).reduce(0) { $0 + $1.value })
    }

    /// One reading every 10 minutes between 60 and 99 bpm.
    public func heartRate(_ query: HealthQuery) throws -> [HeartRateSample] {
        guard try readable(.heartRate) else { return [] }
        var out: [HeartRateSample] = []
        var time = (query.endDate.date.timeIntervalSince1970 / 600).rounded(.down) * 600
        while time >= query.startDate.date.timeIntervalSince1970, out.count < query.effectiveLimit {
            if time < query.endDate.date.timeIntervalSince1970 {
                out.append(
                    HeartRateSample(date: ISODate(Date(timeIntervalSince1970: time)), bpm: Double(60 + Int(time / 600) % 40)))
            }
            time -= 600
        }
        return out
    }

    /// The saved workouts in the range.
    public func workouts(_ query: HealthQuery) throws -> [Workout] {
        guard try readable(.workouts) else { return [] }
        return Array(
            savedWorkouts.filter { $0.startDate >= query.startDate && $0.startDate < query.endDate }
                .sorted { $0.startDate > $1.startDate }.prefix(query.effectiveLimit))
    }

    /// A night from 23:00 to 07:00 UTC for each day in the range, newest first.
    public func sleep(_ query: HealthQuery) throws -> [SleepSample] {
        guard try readable(.sleep) else { return [] }
        let stages: [(SleepStage, Double)] = [
            (.inBed, 0.25), (.core, 3), (.deep, 1.5), (.rem, 1.25), (.core, 1.75), (.awake, 0.25),
        ]
        var out: [SleepSample] = []
        var night = (query.startDate.date.timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 3600
        while night < query.endDate.date.timeIntervalSince1970 {
            var start = night
            for (stage, hours) in stages {
                let end = start + hours * 3600
                if start >= query.startDate.date.timeIntervalSince1970, end <= query.endDate.date.timeIntervalSince1970 {
                    out.append(
                        SleepSample(
                            startDate: ISODate(Date(timeIntervalSince1970: start)),
                            endDate: ISODate(Date(timeIntervalSince1970: end)), stage: stage))
                }
                start = end
            }
            night += 86_400
        }
        return Array(out.reversed().prefix(query.effectiveLimit))
    }

    /// Keeps the workout.
    public func save(_ workout: Workout) throws {
        try authorized(.workouts)
        savedWorkouts.append(workout)
        record("healthkit.saveWorkout \(workout.type.rawValue)")
    }

    private func requireHealth() throws(BridgeError) {
        guard healthAvailable else { throw BridgeError(.module("healthkit", "unavailable"), "this device has no health store") }
    }

    /// Whether `type` may be read. As on HealthKit, which never reveals read authorization, a type the
    /// user did not allow reads as no samples rather than failing.
    private func readable(_ type: HealthDataType) throws(BridgeError) -> Bool {
        try requireHealth()
        return healthAuthorized.contains(type)
    }

    private func authorized(_ type: HealthDataType) throws(BridgeError) {
        try requireHealth()
        guard healthAuthorized.contains(type) else {
            throw BridgeError(
                .module("healthkit", "not_authorized"),
                "\(type.rawValue) has not been authorized; call requestAuthorization first")
        }
    }

    private func hourlySteps(_ query: HealthQuery) -> [QuantitySample] {
        var out: [QuantitySample] = []
        let start = query.startDate.date.timeIntervalSince1970
        var hour = (query.endDate.date.timeIntervalSince1970 / 3600).rounded(.up) * 3600 - 3600
        // NB: a query spans at most 366 days, 8,784 hours.
        while hour + 3600 > start, out.count < 10_000 {
            let from = max(hour, start)
            let to = min(hour + 3600, query.endDate.date.timeIntervalSince1970)
            if to > from {
                let perHour = Double((Int(hour / 3600) * 7919) % 1000)
                out.append(
                    QuantitySample(
                        startDate: ISODate(Date(timeIntervalSince1970: from)), endDate: ISODate(Date(timeIntervalSince1970: to)),
                        value: (perHour * (to - from) / 3600).rounded()))
            }
            hour -= 3600
        }
        return out
    }
}

extension SimulatedDevice: PaymentsProvider {
    /// Whether the script says the device can pay.
    public func availability(networks: [String]) -> PaymentsAvailability {
        PaymentsAvailability(canMakePayments: paymentsAvailable && !networks.isEmpty, networks: networks)
    }

    /// The next scripted outcome (approve when none is scripted); the token says it is simulated.
    public func authorize(_ sheet: PaymentSheet) throws -> PaymentToken? {
        let outcome = paymentOutcomes.isEmpty ? .approve : paymentOutcomes.removeFirst()
        record("payments.request \(sheet.total.amount) \(sheet.currency) \(outcome.rawValue)")
        switch outcome {
        case .cancel: return nil
        case .fail: throw BridgeError(.module("payments", "failed"), "the simulated payment was declined")
        case .approve:
            paymentCounter += 1
            let network = sheet.networks.contains("visa") ? "visa" : sheet.networks.first ?? "visa"
            let data =
                #"{"simulated":true,"merchantId":"\#(sheet.merchantId)","amount":"\#(sheet.total.amount)","currency":"\#(sheet.currency)"}"#
            return PaymentToken(
                paymentData: Data(data.utf8).base64EncodedString(), transactionIdentifier: "simulated-\(paymentCounter)",
                network: network, displayName: "Simulated \(network) 4242")
        }
    }
}
