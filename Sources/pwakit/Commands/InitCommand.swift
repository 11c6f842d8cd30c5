import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitFiles

/// `pwakit init [manifest]`: writes a `pwa-config.json` made from a web app manifest.
struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Write a pwa-config.json from a web app manifest.",
        discussion: """
            Reads name/short_name, start_url, scope, display, orientation, theme_color and \
            background_color from the manifest (a file, or a directory holding manifest.json, \
            manifest.webmanifest or site.webmanifest; default: the current directory, if it has \
            one). Options fill in or override what the manifest says. Without --bundle-id the \
            bundle id is the start URL's host reversed (https://app.example.com → \
            com.example.app); app://, localhost and IP start URLs need --bundle-id. Without \
            --allow, origins.allowed is the start URL's host, narrowed to the manifest's scope. \
            The result is validated before anything is written. The file names its JSON Schema in \
            "$schema"; the schema is written beside it (pwa-config.schema.json) unless one is there \
            and --force is not given.

            Exit status: 0 written; 1 the manifest or options cannot make a valid configuration; \
            2 the manifest cannot be read; 3 the output exists and --force was not given; \
            4 the output cannot be written.
            """)

    @Argument(help: "A web app manifest, or a directory that holds one.")
    var manifest: String?

    @Option(name: .shortAndLong, help: "Where to write (a file or a directory); default: beside the manifest.")
    var output: String?

    @Flag(help: "Replace an existing file.")
    var force = false

    @Option(help: "The app name (default: the manifest's name, else short_name).")
    var name: String?

    @Option(name: .customLong("bundle-id"), help: "The reverse-DNS bundle id, e.g. com.example.app.")
    var bundleId: String?

    @Option(name: .customLong("start-url"), help: "The absolute start URL (overrides the manifest's start_url).")
    var startURL: String?

    @Option(help: "The base a relative start_url and scope resolve against: https://example.com or app://<appId>.")
    var origin: String?

    @Option(name: .customLong("allow"), help: "An origins.allowed pattern (repeatable).")
    var allowed: [String] = []

    @Option(name: .customLong("auth"), help: "An origins.auth pattern (repeatable).")
    var auth: [String] = []

    @Option(name: .customLong("external"), help: "An origins.external pattern (repeatable).")
    var external: [String] = []

    @Option(
        name: .customLong("display-mode"), help: "standalone or fullscreen (overrides the manifest's display).",
        transform: choice)
    var displayMode: DisplayMode?

    @Option(
        name: .customLong("orientation"), help: "any, portrait or landscape (overrides the manifest's orientation).",
        transform: choice)
    var orientationLock: OrientationLock?

    @Option(name: .customLong("status-bar-style"), help: "adaptive, light or dark.", transform: choice)
    var statusBarStyle: StatusBarStyle?

    @Flag(inversion: .prefixedNo, help: "Whether pulling down reloads the page (default: no).")
    var pullToRefresh: Bool?

    @Option(name: .customLong("theme-color"), help: "#RGB or #RRGGBB (overrides the manifest's theme_color).")
    var themeColor: String?

    @Option(name: .customLong("background-color"), help: "#RGB or #RRGGBB (overrides the manifest's background_color).")
    var backgroundColor: String?

    func run() throws {
        try CommandFailure.run(json: false) {
            let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            var manifestFile: URL?
            if let manifest {
                manifestFile = try WebAppManifest.locate(URL(fileURLWithPath: manifest))
            } else {
                manifestFile = try? WebAppManifest.locate(current)
            }
            let parsed = try manifestFile.map { file throws(ConfigurationError) in try WebAppManifest.read(at: file) }
            let options = ManifestImport.Options(
                name: name, bundleId: bundleId, startURL: startURL, origin: origin, allowed: allowed, auth: auth,
                external: external, displayMode: displayMode, orientationLock: orientationLock,
                statusBarStyle: statusBarStyle, pullToRefresh: pullToRefresh, themeColor: themeColor,
                backgroundColor: backgroundColor)
            let result = try ManifestImport.makeConfiguration(manifest: parsed, options: options)
            let destination = try destination(manifestFile: manifestFile, current: current)
            let data = result.configuration.encodedJSON(schema: ConfigurationSchema.fileName)
            // NB: the schema editors use goes beside the file; one already there is kept unless --force.
            let schemaFile = destination.deletingLastPathComponent().appendingPathComponent(ConfigurationSchema.fileName)
            let writesSchema = force || !FileManager.default.fileExists(atPath: schemaFile.path)
            for (file, bytes) in [(destination, data)] + (writesSchema ? [(schemaFile, Data(ConfigurationSchema.text.utf8))] : [])
            {
                do { try DurableFile.replace(file.path, with: bytes) } catch {
                    throw CommandFailure(
                        status: .cannotWrite, code: "init.cannot_write", message: "cannot write \(file.path): \(error)")
                }
            }
            for note in result.notes { Console.writeError("note: \(note)") }
            Console.write("wrote \(destination.path)")
            if writesSchema { Console.write("wrote \(schemaFile.path) (the JSON Schema its \"$schema\" names, for editors)") }
            for line in ReportFormatter.lines(for: result.report) { Console.write(line) }
        }
    }

    /// The file to write; refuses an existing one without `--force`.
    private func destination(manifestFile: URL?, current: URL) throws -> URL {
        var target: URL
        if let output {
            target = URL(fileURLWithPath: output)
        } else {
            target = manifestFile?.deletingLastPathComponent() ?? current
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: target.path, isDirectory: &isDirectory), isDirectory.boolValue {
            target.appendPathComponent(ConfigurationLoader.fileName)
        }
        if FileManager.default.fileExists(atPath: target.path) && !force {
            throw CommandFailure(
                status: .outputExists, code: "init.output_exists",
                message: "\(target.path) already exists; pass --force to replace it")
        }
        return target
    }
}

/// Parses one of an enumeration's raw values, naming the accepted ones when it is not.
private func choice<Value: RawRepresentable & CaseIterable>(_ text: String) throws -> Value
where Value.RawValue == String {
    guard let value = Value(rawValue: text) else {
        let accepted = Value.allCases.map(\.rawValue).joined(separator: ", ")
        throw ValidationError("\"\(text)\" is not one of \(accepted)")
    }
    return value
}
