public import Foundation

/// Finds, reads, validates and decodes `pwa-config.json`.
///
/// Loading always validates first: a file with any error throws a ``ConfigurationError``
/// carrying the whole ``ValidationReport``; there is no fallback to defaults.
public struct ConfigurationLoader: Sendable {
    /// The file name looked for inside a directory.
    public static let fileName = "pwa-config.json"

    /// Creates a loader.
    public init() {}

    /// Decodes a validated configuration from bytes.
    public static func load(from data: Data) throws(ConfigurationError) -> PWAConfiguration {
        try loadReporting(from: data).configuration
    }

    /// Loads the configuration at `url`: a file, or a directory holding `pwa-config.json`.
    public static func load(from url: URL) throws(ConfigurationError) -> PWAConfiguration {
        try load(from: readData(at: url))
    }

    /// Loads the configuration at a file or directory path.
    public static func load(fromPath path: String) throws(ConfigurationError) -> PWAConfiguration {
        try load(from: URL(fileURLWithPath: path))
    }

    /// Decodes a validated configuration and returns it with the report, whose warnings
    /// (unknown keys, duplicate patterns) a host may want to log.
    public static func loadReporting(from data: Data) throws(ConfigurationError) -> (
        configuration: PWAConfiguration, report: ValidationReport
    ) {
        let report = ConfigurationValidator().validate(data)
        guard report.isValid else {
            if report.issues.contains(where: { $0.code == .invalidJSON }) {
                throw ConfigurationError(
                    code: .invalidJSON, message: report.errors.first?.message ?? "not valid JSON", report: report)
            }
            let count = report.errors.count
            throw ConfigurationError(
                code: .invalid, message: "the configuration has \(count) error\(count == 1 ? "" : "s")", report: report)
        }
        do {
            return (try JSONDecoder().decode(PWAConfiguration.self, from: data), report)
        } catch {
            // NB: unreachable for a document the validator accepts; kept as an error, never a crash.
            throw ConfigurationError(
                code: .invalid, message: "the configuration cannot be decoded: \(error)", report: report)
        }
    }

    /// Where the configuration for `url` lives: `url` itself when it is a file,
    /// `url/pwa-config.json` when it is a directory.
    public static func locate(_ url: URL) throws(ConfigurationError) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ConfigurationError(code: .unreadable, message: "no such file or directory: \(url.path)")
        }
        guard isDirectory.boolValue else { return url }
        let candidate = url.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: candidate.path) else {
            throw ConfigurationError(code: .unreadable, message: "no \(fileName) in directory \(url.path)")
        }
        return candidate
    }

    /// Finds the configuration a host should use: the explicit path when one is given
    /// (and then nothing else), else the first of `searchDirectories` (the app's directory
    /// or bundle) that holds `pwa-config.json`.
    public static func locate(explicitPath: String?, searchDirectories: [URL]) throws(ConfigurationError) -> URL {
        if let explicitPath { return try locate(URL(fileURLWithPath: explicitPath)) }
        for directory in searchDirectories {
            let candidate = directory.appendingPathComponent(fileName)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        let searched = searchDirectories.map(\.path).joined(separator: ", ")
        throw ConfigurationError(code: .unreadable, message: "no \(fileName) found (searched: \(searched))")
    }

    /// Reads the configuration bytes for a file or directory; at most one byte more than
    /// ``ConfigurationValidator/maximumSize`` is read, so an oversized file is reported as
    /// too large by the validator without being loaded whole.
    public static func readData(at url: URL) throws(ConfigurationError) -> Data {
        let file = try locate(url)
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            return try handle.read(upToCount: ConfigurationValidator.maximumSize + 1) ?? Data()
        } catch {
            throw ConfigurationError(
                code: .unreadable, message: "cannot read \(file.path): \(error.localizedDescription)")
        }
    }
}
