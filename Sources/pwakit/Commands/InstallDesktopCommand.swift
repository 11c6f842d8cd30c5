import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitFiles
import PWAKitRouting

/// `pwakit install-desktop --scheme myapp` (or `--config pwa-config.json`): registers `pwakit launcher` as the handler of an app's
/// links on a Linux desktop, by writing a freedesktop `.desktop` entry for `x-scheme-handler/<scheme>`.
struct InstallDesktopCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-desktop",
        abstract: "Register pwakit as the handler of an app's links on a Linux desktop.",
        discussion: """
            Writes a desktop entry (freedesktop Desktop Entry 1.5) whose MimeType is \
            x-scheme-handler/<scheme> and whose Exec runs `<this pwakit> launcher %u`, by default \
            to $XDG_DATA_HOME/applications/pwakit-<scheme>.desktop (~/.local/share/applications \
            when XDG_DATA_HOME is not set). It prints the xdg-mime command that makes it the \
            default handler; nothing else on the system is changed.

            With --config, the scheme is the configuration's identifiers.urlScheme (by default its \
            bundle id in lowercase), the entry carries the app's name, and the launcher is run \
            with --config so it also reads the app's universal links. --server is passed to the \
            launcher too; without it the launcher uses the server of its last run.

            With --share (and --config) a second entry, pwakit-<scheme>-share.desktop beside the \
            first, offers "Share to <app>" for links (MimeType the http and https schemes, so Open \
            With lists it for a link; this command makes it the default for nothing, though on a \
            desktop with no default browser xdg-open may pick it): it runs `<this pwakit> share \
            --config <config> %u`, which keeps the link in the app group's share outbox for the app \
            to send.

            Exit status: 0 written; 1 an invalid configuration; 2 an unreadable one; 3 the output \
            exists and --force was not given; 4 the output cannot be written; 64 a scheme that is \
            not RFC 3986 syntax, or neither or both of --scheme and --config.
            """)

    @Option(help: "The app's URL scheme (RFC 3986: a letter, then letters, digits, '+', '-', '.'), e.g. myapp.")
    var scheme: String?

    @Option(help: "A pwa-config.json (or its directory) whose identifiers.urlScheme and app name the entry uses.")
    var config: String?

    @Option(
        name: .shortAndLong,
        help: "Where to write (default: ~/.local/share/applications/pwakit-<scheme>.desktop).")
    var output: String?

    @Option(help: "The platform server the launcher uses, written into the entry (default: the launcher's last one).")
    var server: String?

    @Option(help: "The pwakit executable the entry runs (default: this one).")
    var executable: String?

    @Flag(help: "Also write the \"Share to <app>\" entry that runs `pwakit share --config` (needs --config).")
    var share = false

    @Flag(help: "Replace an existing file.")
    var force = false

    func validate() throws {
        guard (scheme == nil) != (config == nil) else { throw ValidationError("give one of --scheme and --config") }
        if share, config == nil { throw ValidationError("--share needs --config (the share outbox is the app group's)") }
        if let scheme {
            do {
                _ = try URLScheme(scheme)
            } catch {
                throw ValidationError("--scheme: \(error.message)")
            }
        }
        if let server, !LauncherCommand.isServerURL(server) {
            throw ValidationError("--server must be an http or https URL, e.g. http://127.0.0.1:8080")
        }
        if let executable, !executable.hasPrefix("/") {
            throw ValidationError("--executable must be an absolute path")
        }
    }

    func run() throws {
        try CommandFailure.run(json: false) {
            var appName: String?
            var schemeText = scheme ?? ""
            var arguments = server.map { ["--server", $0] } ?? []
            var configPath: String?
            if let config {
                let file = try ConfigurationLoader.locate(URL(fileURLWithPath: config))
                let identifiers = AppIdentifiers(try ConfigurationLoader.load(from: file))
                schemeText = identifiers.urlScheme
                appName = identifiers.name
                arguments += ["--config", file.standardizedFileURL.path]
                configPath = file.standardizedFileURL.path
            }
            let scheme = try URLScheme(schemeText)
            let program = try executable ?? Self.runningExecutable()
            let target = try destination(for: scheme)
            var files = [(target, try Self.entry(scheme: scheme, program: program, appName: appName, arguments: arguments))]
            if share, let configPath {
                let name = target.lastPathComponent.replacingOccurrences(of: ".desktop", with: "") + "-share.desktop"
                files.append(
                    (
                        target.deletingLastPathComponent().appendingPathComponent(name),
                        try Self.shareEntry(program: program, appName: appName ?? "PWAKit", config: configPath)
                    ))
            }
            for (file, _) in files where FileManager.default.fileExists(atPath: file.path) && !force {
                throw CommandFailure(
                    status: .outputExists, code: "install_desktop.output_exists",
                    message: "\(file.path) already exists; pass --force to replace it")
            }
            for (file, entry) in files {
                do {
                    try FileManager.default.createDirectory(
                        at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                    try DurableFile.replace(file.path, with: Data(entry.utf8))
                } catch {
                    throw CommandFailure(
                        status: .cannotWrite, code: "install_desktop.cannot_write",
                        message: "cannot write \(file.path): \(error)")
                }
                Console.write("wrote \(file.path)")
            }
            Console.write(
                "to make it the default for \(scheme.name): links, run: "
                    + "xdg-mime default \(target.lastPathComponent) x-scheme-handler/\(scheme.name)")
            if files.count > 1 {
                Console.write(
                    "\"Share to \(appName ?? "PWAKit")\" is registered for http and https links; to try it: gio launch \(files[1].0.path) https://example.com/"
                )
            }
        }
    }

    /// The desktop entry's text.
    static func entry(scheme: URLScheme, program: String, appName: String? = nil, arguments: [String] = []) throws
        -> String
    {
        for word in [program] + arguments where word.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw CommandFailure(
                "the executable's path or an argument holds a control character", code: "install_desktop.invalid_path")
        }
        let name = entryText(appName ?? "PWAKit")
        return """
            [Desktop Entry]
            Version=1.5
            Type=Application
            Name=\(name) (\(scheme.name): links)
            Comment=Opens \(scheme.name): links in the PWAKit launcher
            Exec=\(([program] + ["launcher"] + arguments).map(execValue).joined(separator: " ")) %u
            Terminal=false
            NoDisplay=true
            MimeType=x-scheme-handler/\(scheme.name);

            """
    }

    /// The "Share to <app>" entry: `pwakit share --config <config> %u` for links.
    static func shareEntry(program: String, appName: String, config: String) throws -> String {
        for word in [program, config] where word.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            throw CommandFailure(
                "the executable's path or the configuration's holds a control character", code: "install_desktop.invalid_path")
        }
        let name = entryText(appName)
        return """
            [Desktop Entry]
            Version=1.5
            Type=Application
            Name=Share to \(name)
            Comment=Keeps a link for \(name); the app sends it to its server
            Exec=\(([program, "share", "--config", config]).map(execValue).joined(separator: " ")) %u
            Terminal=false
            NoDisplay=true
            MimeType=x-scheme-handler/http;x-scheme-handler/https;

            """
    }

    /// Text as a desktop entry's string value: one line (control characters, a newline would start a
    /// new key, become spaces) with `\\` doubled.
    static func entryText(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
            .replacingOccurrences(of: "\\", with: "\\\\")
    }

    /// One word of `Exec` (the program or an argument): quoted when it holds a reserved character, with
    /// `"`, `` ` ``, `$` and `\` escaped inside the quotes, then `\` doubled and `%` written `%%`
    /// as a desktop entry's string value needs.
    static func execValue(_ program: String) -> String {
        let reserved = Set(" \t\"'\\><~|&;$*?#()`")
        var word = program
        if program.contains(where: reserved.contains) {
            var quoted = "\""
            for character in program {
                if "\"`$\\".contains(character) { quoted.append("\\") }
                quoted.append(character)
            }
            word = quoted + "\""
        }
        return word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "%%")
    }

    /// `--output`, else `pwakit-<scheme>.desktop` in the user's applications directory.
    private func destination(for scheme: URLScheme) throws -> URL {
        if let output { return URL(fileURLWithPath: output) }
        let environment = ProcessInfo.processInfo.environment
        let dataHome: String
        if let xdg = environment["XDG_DATA_HOME"], xdg.hasPrefix("/") {
            dataHome = xdg
        } else if let home = environment["HOME"], !home.isEmpty {
            dataHome = home + "/.local/share"
        } else {
            throw CommandFailure("neither XDG_DATA_HOME nor HOME is set: pass --output", code: "install_desktop.no_home")
        }
        return URL(fileURLWithPath: dataHome).appendingPathComponent("applications/pwakit-\(scheme.name).desktop")
    }

    /// The path of the running executable.
    private static func runningExecutable() throws -> String {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return path }
        if let path = Bundle.main.executablePath { return path }
        throw CommandFailure("cannot find this executable's path: pass --executable", code: "install_desktop.no_executable")
    }
}
