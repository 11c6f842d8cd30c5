public import Foundation
import PWAKitErrors

/// Canonical encoding and validated decoding of ``ReleaseManifest`` bytes.
///
/// Encoding is deterministic (sorted keys, no whitespace, files sorted by path) so the same
/// bundle always yields the same bytes; decoding validates every field and names the one at fault.
public enum ManifestCoding {
    /// The largest manifest accepted, in bytes.
    public static let maximumManifestSize = 1 << 20
    /// The most files one release may list.
    public static let maximumFileCount = 10_000

    /// Encodes a manifest canonically, after validating it.
    public static func encode(_ manifest: ReleaseManifest) throws -> Data {
        var sorted = manifest
        sorted.files.sort { $0.path.utf8.lexicographicallyPrecedes($1.path.utf8) }
        try validate(sorted)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(sorted)
    }

    /// Decodes manifest bytes and validates every field; throws ``BundleError`` naming the field at fault.
    public static func decode(_ bytes: Data) throws -> ReleaseManifest {
        guard bytes.count <= maximumManifestSize else {
            throw BundleError(.malformedManifest, "manifest is larger than \(maximumManifestSize) bytes", field: "manifest")
        }
        let manifest: ReleaseManifest
        do {
            manifest = try JSONDecoder().decode(ReleaseManifest.self, from: bytes)
        } catch let error as DecodingError {
            let path = error.fieldPath
            throw BundleError(
                .malformedManifest, "\(path.isEmpty ? "manifest" : path) \(error.fieldProblem)", field: path.isEmpty ? nil : path)
        }
        try validate(manifest)
        return manifest
    }

    /// Checks every field of a manifest against the format's rules.
    public static func validate(_ manifest: ReleaseManifest) throws {
        guard manifest.format == ReleaseManifest.currentFormat else {
            throw BundleError(.invalidField, "only format \(ReleaseManifest.currentFormat) is understood", field: "format")
        }
        try ManifestRules.checkAppId(manifest.appId, field: "appId")
        guard SemanticVersion(manifest.version) != nil else {
            throw BundleError(
                .invalidField, "must be MAJOR.MINOR.PATCH with parts up to \(SemanticVersion.maximumPart)", field: "version")
        }
        try ManifestRules.checkChannel(manifest.channel, field: "channel")
        guard !manifest.files.isEmpty else { throw BundleError(.invalidField, "must list at least one file", field: "files") }
        guard manifest.files.count <= maximumFileCount else {
            throw BundleError(.invalidField, "lists more than \(maximumFileCount) files", field: "files")
        }
        var seen = Set<String>()
        for (index, file) in manifest.files.enumerated() {
            let prefix = "files[\(index)]"
            try ManifestRules.checkPath(file.path, field: "\(prefix).path")
            guard seen.insert(file.path).inserted else {
                throw BundleError(.invalidField, "path \(file.path) is listed twice", field: "\(prefix).path")
            }
            guard ManifestRules.isSHA256Hex(file.sha256) else {
                throw BundleError(.invalidField, "must be 64 lowercase hexadecimal digits", field: "\(prefix).sha256")
            }
            guard file.size >= 0, file.size <= ManifestRules.maximumFileSize else {
                throw BundleError(
                    .invalidField, "must be between 0 and \(ManifestRules.maximumFileSize)", field: "\(prefix).size")
            }
            guard ManifestRules.isContentType(file.contentType) else {
                throw BundleError(
                    .invalidField, "must be a media type of at most 255 printable characters", field: "\(prefix).contentType")
            }
        }
        guard seen.contains(manifest.entry) else {
            throw BundleError(.invalidField, "must be the path of one of the files", field: "entry")
        }
    }
}
