public import Foundation
public import PWAKitCore

/// The device features a desktop or CI machine lacks — haptics, vibration, biometrics,
/// permissions, the store, health data, the share sheet, the badge — simulated, scriptable
/// and never silent: every action is recorded in ``log`` and reported through `logger`, and
/// `platform.getInfo` says these providers are simulated.
///
/// Script it from tests with the setters, or from the command line with a JSON file
/// (`pwakit run --simulate device.json`; see ``SimulationScript``).
public actor SimulatedDevice {
    /// What happened, in order: `haptics.impact medium`, `biometrics.authenticate failed`, ….
    public private(set) var log: [String] = []
    private let logger: @Sendable (String) -> Void

    var biometryType: BiometryType = .faceID
    var biometricsEnrolled = true
    /// The enrolment's opaque state (`LAContext.evaluatedPolicyDomainState` on a device).
    public private(set) var biometricEnrollment = "enrollment-1"
    var biometricOutcomes: [BiometricFailure?] = []
    var permissions: [DevicePermission: PermissionState] = [:]
    var permissionAnswers: [DevicePermission: PermissionState] = [:]
    var shareAvailable = true
    var shareOutcomes: [Bool] = []
    var badge = 0
    var products: [Product] = SimulatedDevice.sampleProducts
    var purchaseOutcomes: [PurchaseStatus] = []
    var owned: [Entitlement] = []
    var healthAvailable = true
    var paymentsAvailable = true
    var paymentOutcomes: [SimulationScript.PaymentOutcome] = []
    var paymentCounter = 0
    var healthAuthorized: Set<HealthDataType> = []
    var savedWorkouts: [Workout] = []
    var reviewRequests = 0
    var notificationPermission: NotificationPermissionState = .notDetermined
    var notificationAnswer: NotificationPermissionState = .granted
    var presented: [LocalNotification] = []
    var clipboard: String?
    var transactionCounter = 0

    /// A device in its default state; `logger` receives one line per simulated action.
    public init(logger: @escaping @Sendable (String) -> Void = { _ in }) {
        self.logger = logger
    }

    /// Applies `script`.
    public func apply(_ script: SimulationScript) {
        if let biometrics = script.biometrics {
            if let type = biometrics.type { biometryType = type }
            if let enrolled = biometrics.enrolled { biometricsEnrolled = enrolled }
            if let enrollment = biometrics.enrollment { biometricEnrollment = enrollment }
            if let outcomes = biometrics.outcomes {
                biometricOutcomes = outcomes.map { $0 == "success" ? nil : BiometricFailure(rawValue: $0) }
            }
        }
        for (name, state) in script.permissions ?? [:] {
            if let permission = DevicePermission(rawValue: name) { permissions[permission] = state }
        }
        for (name, state) in script.permissionAnswers ?? [:] {
            if let permission = DevicePermission(rawValue: name) { permissionAnswers[permission] = state }
        }
        if let share = script.share {
            if let available = share.available { shareAvailable = available }
            if let outcomes = share.outcomes { shareOutcomes = outcomes }
        }
        if let store = script.store {
            if let products = store.products { self.products = products }
            if let outcomes = store.purchaseOutcomes { purchaseOutcomes = outcomes }
            if let owned = store.entitlements { self.owned = owned }
        }
        if let available = script.healthAvailable { healthAvailable = available }
        if let payments = script.payments {
            if let available = payments.available { paymentsAvailable = available }
            if let outcomes = payments.outcomes { paymentOutcomes = outcomes }
        }
    }

    /// The next payment sheets end with these outcomes, in order.
    public func scriptPayments(_ outcomes: [SimulationScript.PaymentOutcome], available: Bool = true) {
        paymentOutcomes = outcomes
        paymentsAvailable = available
    }

    /// Replaces the enrolment state, as adding a finger or face does.
    public func changeEnrollment(to state: String) { biometricEnrollment = state }

    /// The next `biometrics.authenticate` calls end with these outcomes, in order (`nil`: success).
    public func scriptBiometrics(_ outcomes: [BiometricFailure?], type: BiometryType = .faceID, enrolled: Bool = true) {
        biometricOutcomes = outcomes
        biometryType = type
        biometricsEnrolled = enrolled
    }

    /// Sets a permission's current state and the answer the user gives when asked.
    public func setPermission(_ permission: DevicePermission, state: PermissionState, answer: PermissionState? = nil) {
        permissions[permission] = state
        permissionAnswers[permission] = answer
    }

    /// The next `share.share` calls end with these outcomes (true: shared, false: dismissed).
    public func scriptShare(_ outcomes: [Bool], available: Bool = true) {
        shareOutcomes = outcomes
        shareAvailable = available
    }

    /// The next `iap.purchase` calls end with these statuses.
    public func scriptPurchases(_ outcomes: [PurchaseStatus]) {
        purchaseOutcomes = outcomes
    }

    /// The badge now shown.
    public var badgeCount: Int { badge }

    /// The workouts saved so far.
    public var workouts: [Workout] { savedWorkouts }

    func record(_ line: String) {
        log.append(line)
        logger("simulated \(line)")
    }

    /// Products the simulated store sells unless a script replaces them.
    public static let sampleProducts = [
        Product(
            id: "com.example.pro.monthly", displayName: "Pro (monthly)", description: "Everything, billed monthly",
            price: 4.99, displayPrice: "$4.99", type: .autoRenewable),
        Product(
            id: "com.example.coins.100", displayName: "100 coins", description: "A bag of coins", price: 0.99,
            displayPrice: "$0.99", type: .consumable),
        Product(
            id: "com.example.unlock", displayName: "Unlock", description: "Unlocks the full app", price: 9.99,
            displayPrice: "$9.99", type: .nonConsumable),
    ]
}

/// A JSON script for ``SimulatedDevice`` (`pwakit run --simulate FILE`).
///
/// ```json
/// { "biometrics": { "type": "touchID", "outcomes": ["user_cancel", "success"] },
///   "permissions": { "camera": "denied" }, "share": { "outcomes": [false] } }
/// ```
public struct SimulationScript: Codable, Sendable, Hashable {
    /// Biometrics: the sensor, enrolment and the outcomes of the next prompts.
    public var biometrics: Biometrics?
    /// Permission name → current state.
    public var permissions: [String: PermissionState]?
    /// Permission name → the answer to the next request.
    public var permissionAnswers: [String: PermissionState]?
    /// Share sheet outcomes.
    public var share: Share?
    /// The store's products, purchase outcomes and owned entitlements.
    public var store: Store?
    /// Whether a health store exists.
    public var healthAvailable: Bool?
    /// Payments: whether the device can pay, and how the next payment sheets end.
    public var payments: Payments?

    /// How a simulated payment sheet ends.
    public enum PaymentOutcome: String, Codable, Sendable, Hashable {
        /// The person authorises: a token (marked simulated) is answered.
        case approve
        /// The person closes the sheet.
        case cancel
        /// The payment is declined: `payments.failed`.
        case fail
    }

    /// Payment settings.
    public struct Payments: Codable, Sendable, Hashable {
        /// Whether the device can pay.
        public var available: Bool?
        /// Per payment sheet: approve, cancel or fail (approve once they run out).
        public var outcomes: [PaymentOutcome]?
    }
    /// Pushes delivered to the page after it loads.
    public var pushes: [PushEvent]?

    /// Biometrics settings.
    public struct Biometrics: Codable, Sendable, Hashable {
        /// The sensor.
        public var type: BiometryType?
        /// Whether a biometric is enrolled.
        public var enrolled: Bool?
        /// `success` or a failure reason (`user_cancel`, `lockout`, …) per prompt.
        public var outcomes: [String]?
        /// The enrolment's opaque state; a different value than before is a new finger or face.
        public var enrollment: String?
    }

    /// Share settings.
    public struct Share: Codable, Sendable, Hashable {
        /// Whether sharing exists.
        public var available: Bool?
        /// Per share: true shared, false dismissed.
        public var outcomes: [Bool]?
    }

    /// Store settings.
    public struct Store: Codable, Sendable, Hashable {
        /// The products.
        public var products: [Product]?
        /// Per purchase.
        public var purchaseOutcomes: [PurchaseStatus]?
        /// Already owned.
        public var entitlements: [Entitlement]?
    }

    /// An empty script.
    public init() {}

    /// Parses a script, naming the field at fault.
    public static func parse(_ data: Data) throws(BridgeError) -> SimulationScript {
        let value: JSONValue
        do {
            value = try JSONParser.parse(data)
        } catch {
            throw BridgeError(.invalidPayload, "simulation script: \(error)")
        }
        let script: SimulationScript
        do {
            script = try value.decode(SimulationScript.self)
        } catch let error as DecodingError {
            throw BridgeError(.invalidPayload, "simulation script: \(SimulationScript.describe(error))")
        } catch {
            throw BridgeError(.invalidPayload, "simulation script: \(error)")
        }
        for (name, _) in (script.permissions ?? [:]).merging(script.permissionAnswers ?? [:], uniquingKeysWith: { a, _ in a })
        where DevicePermission(rawValue: name) == nil {
            throw BridgeError.field(.invalidPayload, path: "permissions.\(name)", "is not camera, microphone or location")
        }
        for (index, outcome) in (script.biometrics?.outcomes ?? []).enumerated()
        where outcome != "success" && BiometricFailure(rawValue: outcome) == nil {
            throw BridgeError.field(
                .invalidPayload, path: "biometrics.outcomes[\(index)]",
                "\"\(outcome)\" is not success or a biometrics failure reason")
        }
        if let enrollment = script.biometrics?.enrollment, enrollment.isEmpty || enrollment.utf8.count > 256 {
            throw BridgeError.field(.invalidPayload, path: "biometrics.enrollment", "must be 1…256 bytes")
        }
        return script
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingPrefix(".").description
        }
        switch error {
        case .keyNotFound(let key, let context): return "\(path(context.codingPath + [key])): is required"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}
