import ArgumentParser
import Foundation
import PWAKitCore

/// `pwakit validate [path] [--json]`: checks a `pwa-config.json` and reports every problem.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a pwa-config.json and report every problem with its JSON path.",
        discussion: """
            Exit status: 0 valid (warnings allowed); 1 invalid, including malformed JSON and \
            files over 1 MiB; 2 unreadable (no such file, a directory without pwa-config.json, \
            no permission).
            """)

    @Argument(help: "A pwa-config.json file, or a directory that holds one.")
    var path: String = "."

    @Flag(name: .long, help: "Print the report as JSON: { \"isValid\": …, \"issues\": [ … ] }.")
    var json = false

    func run() throws {
        try CommandFailure.run(json: json) {
            let file = try ConfigurationLoader.locate(URL(fileURLWithPath: path))
            let report = ConfigurationValidator().validate(try ConfigurationLoader.readData(at: file))
            let shownName = file.path == URL(fileURLWithPath: path).path ? path : displayName(inDirectory: path)
            if json {
                Console.writeJSON(report)
            } else {
                Console.write(
                    (["\(shownName): \(ReportFormatter.summary(for: report))"] + ReportFormatter.lines(for: report))
                        .joined(separator: "\n"))
            }
            if !report.isValid {
                throw CommandFailure(status: .invalid, code: ConfigurationError.Code.invalid.rawValue, message: nil)
            }
        }
    }

    private func displayName(inDirectory directory: String) -> String {
        directory == "."
            ? ConfigurationLoader.fileName
            : (directory.hasSuffix("/") ? directory : directory + "/") + ConfigurationLoader.fileName
    }
}
