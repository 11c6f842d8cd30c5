import ArgumentParser
import Foundation
import PWAKitFiles
import PWAKitRouting

/// `pwakit install-desktop --scheme myapp`: registers `pwakit launcher` as the handler of an app's
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

            Exit status: 0 written; 3 the output exists and --force was not given; 4 the output \
            cannot be written; 64 a scheme that is not RFC 3986 syntax.
            """)

    @Option(help: "The app's URL scheme (RFC 3986: a letter, then letters, digits, '+', '-', '.'), e.g. myapp.")
    var scheme: String

    @Option(
        name: .shortAndLong,
        help: "Where to write (default: ~/.local/share/applications/pwakit-<scheme>.desktop).")
    var output: String?

    @Option(help: "The pwakit executable the entry runs (default: this one).")
    var executable: String?

    @Flag(help: "Replace an existing file.")
    var force = false

    func validate() throws {
        do {
            _ = try URLScheme(scheme)
        } catch {
            throw ValidationError("--scheme: \(error.message)")
        }
        if let executable, !executable.hasPrefix("/") {
            throw ValidationError("--executable must be an absolute path")
        }
    }

    func run() throws {
        try CommandFailure.run(json: false) {
            let scheme = try URLScheme(scheme)
            let program = try executable ?? Self.runningExecutable()
            let target = try destination(for: scheme)
            if FileManager.default.fileExists(atPath: target.path) && !force {
                throw CommandFailure(
                    status: .outputExists, code: "install_desktop.output_exists",
                    message: "\(target.path) already exists; pass --force to replace it")
            }
            let entry = try Self.entry(scheme: scheme, program: program)
            do {
                try FileManager.default.createDirectory(
                    at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try DurableFile.replace(target.path, with: Data(entry.utf8))
            } catch {
                throw CommandFailure(
                    status: .cannotWrite, code: "install_desktop.cannot_write",
                    message: "cannot write \(target.path): \(error)")
            }
            Console.write("wrote \(target.path)")
            Console.write(
                "to make it the default for \(scheme.name): links, run: "
                    + "xdg-mime default \(target.lastPathComponent) x-scheme-handler/\(scheme.name)")
        }
    }

    /// The desktop entry's text.
    static func entry(scheme: URLScheme, program: String) throws -> String {
        guard !program.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw CommandFailure("the executable's path holds a control character", code: "install_desktop.invalid_path")
        }
        return """
            [Desktop Entry]
            Version=1.5
            Type=Application
            Name=PWAKit (\(scheme.name): links)
            Comment=Opens \(scheme.name): links in the PWAKit launcher
            Exec=\(execValue(program)) launcher %u
            Terminal=false
            NoDisplay=true
            MimeType=x-scheme-handler/\(scheme.name);

            """
    }

    /// The program as the first word of `Exec`: quoted when it holds a reserved character, with
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
