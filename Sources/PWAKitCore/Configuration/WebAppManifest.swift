public import Foundation

/// The members of a web app manifest (`manifest.json`) that a configuration can be made from.
///
/// Only string members are read; every other member is ignored. A member with the wrong
/// JSON type is an error naming it, not silently dropped.
public struct WebAppManifest: Sendable, Equatable {
    /// File names looked for, in order, when a directory is given.
    public static let fileNames = ["manifest.json", "manifest.webmanifest", "site.webmanifest"]

    /// `name`.
    public var name: String?
    /// `short_name`.
    public var shortName: String?
    /// `start_url`, as written (possibly relative).
    public var startURL: String?
    /// `scope`, as written (possibly relative).
    public var scope: String?
    /// `display`: `fullscreen`, `standalone`, `minimal-ui` or `browser`.
    public var display: String?
    /// `orientation`: `any`, `natural`, `portrait…`, `landscape…`.
    public var orientation: String?
    /// `theme_color`, as written.
    public var themeColor: String?
    /// `background_color`, as written.
    public var backgroundColor: String?
    /// `share_target`, as written.
    public var shareTarget: ShareTarget?

    /// A manifest's `share_target` member, as written (its `action` possibly relative).
    public struct ShareTarget: Sendable, Equatable {
        /// `action`.
        public var action: String?
        /// `method` (`GET` when absent).
        public var method: String?
        /// `enctype`.
        public var enctype: String?
        /// `params.title`, `params.text`, `params.url`.
        public var title: String?, text: String?, url: String?
        /// Whether `params.files` is present.
        public var hasFiles: Bool

        /// Creates one.
        public init(
            action: String?, method: String? = nil, enctype: String? = nil, title: String? = nil, text: String? = nil,
            url: String? = nil, hasFiles: Bool = false
        ) {
            self.action = action
            self.method = method
            self.enctype = enctype
            self.title = title
            self.text = text
            self.url = url
            self.hasFiles = hasFiles
        }
    }

    /// Creates a manifest from its members.
    public init(
        name: String? = nil, shortName: String? = nil, startURL: String? = nil, scope: String? = nil,
        display: String? = nil, orientation: String? = nil, themeColor: String? = nil, backgroundColor: String? = nil
    ) {
        self.name = name
        self.shortName = shortName
        self.startURL = startURL
        self.scope = scope
        self.display = display
        self.orientation = orientation
        self.themeColor = themeColor
        self.backgroundColor = backgroundColor
    }

    /// Parses manifest bytes.
    public init(data: Data) throws(ConfigurationError) {
        guard data.count <= ConfigurationValidator.maximumSize else {
            throw ConfigurationError(code: .manifestInvalid, message: "the manifest is larger than 1 MiB")
        }
        let document: ConfigurationJSON
        do {
            document = try ConfigurationJSONParser.parse(data)
        } catch {
            throw ConfigurationError(
                code: .manifestInvalid, message: "the manifest is not valid JSON: \(error.description)")
        }
        guard let members = document.members else {
            throw ConfigurationError(
                code: .manifestInvalid, message: "the manifest must be a JSON object, found \(document.typeName)")
        }
        func string(_ key: String) throws(ConfigurationError) -> String? {
            guard let value = members.last(where: { $0.key == key })?.value else { return nil }
            guard let text = value.stringValue else {
                throw ConfigurationError(
                    code: .manifestInvalid,
                    message: "manifest member \(key): expected a string, found \(ValidationContext.describe(value))")
            }
            return text
        }
        self.init(
            name: try string("name"), shortName: try string("short_name"), startURL: try string("start_url"),
            scope: try string("scope"), display: try string("display"), orientation: try string("orientation"),
            themeColor: try string("theme_color"), backgroundColor: try string("background_color"))
        if let target = members.last(where: { $0.key == "share_target" })?.value {
            shareTarget = try Self.shareTarget(target)
        }
    }

    private static func shareTarget(_ value: ConfigurationJSON) throws(ConfigurationError) -> ShareTarget {
        func invalid(_ what: String) -> ConfigurationError {
            ConfigurationError(code: .manifestInvalid, message: "manifest member share_target\(what)")
        }
        guard let members = value.members else {
            throw invalid(": expected an object, found \(ValidationContext.describe(value))")
        }
        func string(_ members: [ConfigurationJSON.Member], _ key: String, _ path: String) throws(ConfigurationError) -> String? {
            guard let value = members.last(where: { $0.key == key })?.value else { return nil }
            guard let text = value.stringValue else {
                throw invalid("\(path).\(key): expected a string, found \(ValidationContext.describe(value))")
            }
            return text
        }
        var target = ShareTarget(
            action: try string(members, "action", ""), method: try string(members, "method", ""),
            enctype: try string(members, "enctype", ""))
        if let params = members.last(where: { $0.key == "params" })?.value {
            guard let fields = params.members else {
                throw invalid(".params: expected an object, found \(ValidationContext.describe(params))")
            }
            target.title = try string(fields, "title", ".params")
            target.text = try string(fields, "text", ".params")
            target.url = try string(fields, "url", ".params")
            target.hasFiles = fields.contains { $0.key == "files" }
        }
        return target
    }

    /// Finds the manifest for `url` (a file, or a directory holding one of ``fileNames``).
    public static func locate(_ url: URL) throws(ConfigurationError) -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw ConfigurationError(code: .manifestUnreadable, message: "no such file or directory: \(url.path)")
        }
        guard isDirectory.boolValue else { return url }
        for name in fileNames {
            let candidate = url.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        throw ConfigurationError(
            code: .manifestUnreadable,
            message: "no web app manifest (\(fileNames.joined(separator: ", "))) in directory \(url.path)")
    }

    /// Reads and parses the manifest for `url` (a file or a directory).
    public static func read(at url: URL) throws(ConfigurationError) -> WebAppManifest {
        let file = try locate(url)
        let data: Data
        do {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            data = try handle.read(upToCount: ConfigurationValidator.maximumSize + 1) ?? Data()
        } catch {
            throw ConfigurationError(
                code: .manifestUnreadable, message: "cannot read \(file.path): \(error.localizedDescription)")
        }
        do {
            return try WebAppManifest(data: data)
        } catch {
            throw ConfigurationError(code: error.code, message: "\(file.path): \(error.message)")
        }
    }
}
