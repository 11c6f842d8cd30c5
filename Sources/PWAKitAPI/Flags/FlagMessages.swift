public import Foundation

/// The answer to `GET /v1/flags`: the remote values of the feature flags for the signed-in user
/// (and the app asked about). A flag whose rollout leaves the user out is absent, so the device
/// keeps its default.
public struct FlagsResponse: Codable, Hashable, Sendable {
    /// The values by key.
    public var flags: [String: ScalarValue]

    /// Creates an answer.
    public init(flags: [String: ScalarValue]) { self.flags = flags }
}

/// The body of `PUT /v1/admin/flags/{key}`.
public struct SetFlagRequest: Codable, Hashable, Sendable {
    /// The value users in the rollout get.
    public var value: ScalarValue
    /// The share of users, 0–100, who get it (bucketed as releases are); 100 when absent.
    public var rolloutPercent: Int?
    /// The app the value is for; absent for every app (an app's own value wins over it).
    public var appId: String?

    /// Creates a request.
    public init(value: ScalarValue, rolloutPercent: Int? = nil, appId: String? = nil) {
        self.value = value
        self.rolloutPercent = rolloutPercent
        self.appId = appId
    }
}

/// One flag as an administrator sees it (`GET /v1/admin/flags`, `PUT /v1/admin/flags/{key}`).
public struct FlagResponse: Codable, Hashable, Sendable {
    /// The flag's key.
    public var key: String
    /// The app it is for; `nil` for every app.
    public var appId: String?
    /// Its value.
    public var value: ScalarValue
    /// The share of users who get it.
    public var rolloutPercent: Int
    /// When it was last set.
    public var updatedAt: Date

    /// Creates a description.
    public init(key: String, appId: String?, value: ScalarValue, rolloutPercent: Int, updatedAt: Date) {
        self.key = key
        self.appId = appId
        self.value = value
        self.rolloutPercent = rolloutPercent
        self.updatedAt = updatedAt
    }
}

/// The rules of flag keys and values, checked by the server and by devices.
public enum FlagRules {
    /// Longest string value, in UTF-8 bytes.
    public static let maximumStringBytes = 1024

    /// Whether `key` is a flag key: 1 to 64 characters of a-z, 0-9, `_` and `.`, starting with a letter.
    public static func isKey(_ key: String) -> Bool { EventRules.isName(key, maximum: EventRules.maximumNameLength) }

    /// The rollout subject of a flag (see `RolloutBucket`): `flag|<appId or *>|<key>`.
    public static func subject(key: String, appId: String?) -> String { "flag|\(appId ?? "*")|\(key)" }

    /// What is wrong with `value`, if anything.
    public static func problem(with value: ScalarValue) -> String? {
        switch value {
        case .string(let text) where text.utf8.count > maximumStringBytes: "must be at most \(maximumStringBytes) bytes"
        case .number(let number) where !number.isFinite: "must be a finite number"
        default: nil
        }
    }
}
