/// Where a flag's current value comes from.
public enum FlagSource: String, Codable, Hashable, Sendable {
    /// Set in this process for a test or a debug build (``FeatureFlagStore/override(_:with:)``).
    case override
    /// From the server (`GET /v1/flags`), possibly from the offline cache of the last answer.
    case remote
    /// The app's own default.
    case `default`
}
