import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitFiles

/// `pwakit schema`: the JSON Schema of `pwa-config.json`, for editors and other tools.
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the JSON Schema of pwa-config.json (or write it with --output).",
        discussion: """
            Name it in a configuration's "$schema" ("pwa-config.schema.json" beside the file, as \
            pwakit init writes it) and an editor completes and checks fields as you type. pwakit \
            validate remains the authority: it also checks what a schema cannot say (origins that \
            must cover the start URL, for one).
            """)

    @Option(name: .shortAndLong, help: "Write to this file instead of standard output (replaced if it exists).")
    var output: String?

    func run() throws {
        let data = Data(ConfigurationSchema.text.utf8)
        guard let output else {
            FileHandle.standardOutput.write(data)
            return
        }
        do { try DurableFile.replace(output, with: data) } catch {
            Console.writeError("error: cannot write \(output): \(error)")
            throw ExitCode(CommandFailure.Status.cannotWrite.rawValue)
        }
    }
}
