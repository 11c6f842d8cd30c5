import Foundation
public import PWAKitCore

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
    public private(set) var success: Bool

    /// Creates a result.
    public init(requested: Bool) {
        self.requested = requested
        self.success = true
    }
}
