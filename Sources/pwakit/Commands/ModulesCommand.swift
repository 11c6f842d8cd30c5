import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitHost
import PWAKitModules

/// `pwakit modules [path] [--json]`: the modules a host registers for a configuration.
struct ModulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modules",
        abstract: "List the bridge modules a host registers for a configuration, and their actions.",
        discussion: """
            Reads pwa-config.json from PATH (a file or a directory); a module whose feature flag \
            is off is listed as disabled (calls to it answer "unavailable"). Without PATH and \
            with no pwa-config.json in the current directory, the default flags apply. \
            Exit status: 0 listed; 1 invalid configuration; 2 unreadable.
            """)

    @Argument(help: "A pwa-config.json file, or a directory that holds one.")
    var path: String?

    @Flag(name: .long, help: "Print the modules as JSON.")
    var json = false

    struct Listing: Encodable {
        var configuration: String?
        var schemaHash: String
        var modules: [ModuleDescriptor]
    }

    func run() throws {
        try CommandFailure.run(json: json) {
            let file: URL?
            if let path {
                file = try ConfigurationLoader.locate(URL(fileURLWithPath: path))
            } else {
                let here = URL(fileURLWithPath: ConfigurationLoader.fileName)
                file = FileManager.default.fileExists(atPath: here.path) ? here : nil
            }
            let features = try file.map { try ConfigurationLoader.load(from: $0).features } ?? FeatureFlags()
            let registry: ModuleRegistry
            do throws(RegistryError) {
                // Every host also registers `lifecycle` (the page's ready signal).
                registry = try ModuleRegistry(
                    modules: BuiltInModules.simulated() + [LifecycleModule { _ in }], features: features)
            } catch {
                throw CommandFailure(status: .invalid, code: "modules.registry", message: error.description)
            }
            let listing = Listing(
                configuration: file?.path, schemaHash: BridgeHandshake(registry: registry).schemaHash,
                modules: registry.descriptors)
            if json {
                Console.writeJSON(listing)
            } else {
                Console.write(Self.render(listing))
            }
        }
    }

    static func render(_ listing: Listing) -> String {
        let width = max(8, listing.modules.map(\.name.count).max() ?? 0)
        var lines = ["\(listing.modules.count) modules (\(listing.configuration ?? "default feature flags"))"]
        for module in listing.modules {
            let name = module.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let state = module.enabled ? "enabled " : "disabled"
            let flag = module.featureFlag.map { " [features.\($0)]" } ?? ""
            lines.append("  \(name)  \(state)  \(module.actions.joined(separator: ", "))\(flag)")
        }
        lines.append("schema hash \(listing.schemaHash)")
        return lines.joined(separator: "\n")
    }
}
