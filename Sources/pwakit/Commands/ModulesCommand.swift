import ArgumentParser
import Foundation
import PWAKitCore
import PWAKitFlags
import PWAKitHost
import PWAKitIdentity
import PWAKitMiniApps
import PWAKitModules

/// `pwakit modules [path] [--json | --typescript | --markdown]`: the modules a host registers
/// for a configuration, with their schemas; or the SDK declarations and the reference
/// generated from those schemas.
struct ModulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "modules",
        abstract: "List the bridge modules a host registers for a configuration, and their actions.",
        // NB: the generated usage lists exclusive flags as if they combined.
        usage: "pwakit modules [<path>] [--json | --typescript | --markdown]",
        discussion: """
            Reads pwa-config.json from PATH (a file or a directory); a module whose feature flag \
            is off is listed as disabled (calls to it answer "unavailable"). Without PATH and \
            with no pwa-config.json in the current directory, the default flags apply. \
            --json adds every module's schema (payload and result types, error codes, events). \
            --typescript prints the SDK declarations (SDK/js/pwakit-modules.d.ts) and --markdown the \
            module reference (docs/modules.md); both cover every module whatever the configuration. \
            Exit status: 0 listed; 1 invalid configuration; 2 unreadable.
            """)

    @Argument(help: "A pwa-config.json file, or a directory that holds one.")
    var path: String?

    /// What to print; the usage shows the choices as exclusive (`[--json | --typescript | --markdown]`).
    enum Output: String, EnumerableFlag {
        case json, typescript, markdown

        static func help(for value: Output) -> ArgumentHelp? {
            switch value {
            case .json: "Print the modules and their schemas as JSON."
            case .typescript: "Print the SDK's TypeScript declarations generated from the schemas."
            case .markdown: "Print the Markdown module reference generated from the schemas."
            }
        }
    }

    @Flag(exclusivity: .exclusive) var output: Output?

    var json: Bool { output == .json }
    var typescript: Bool { output == .typescript }
    var markdown: Bool { output == .markdown }

    struct Listing: Encodable {
        var configuration: String?
        var schemaHash: String
        var modules: [ModuleDescriptor]
        var schemas: JSONValue
    }

    func run() throws {
        if typescript || markdown {
            try CommandFailure.run(json: false) {
                do throws(SchemaError) {
                    // The host's own modules too: where each is registered is said in the reference.
                    let schemas = try ModuleCatalog.schemas(
                        including: [
                            LifecycleModule.self, ReportModule.self, SessionModule.self, LauncherModule.self, PostsModule.self,
                            FlagsModule.self, IdentityModule.self,
                        ])
                    let availability = [
                        "report": "test mode only (`pwakit run --report`, `miniapp open --report`)",
                        "session": "mini-apps only (`pwakit launcher`, `pwakit miniapp open`), answering their own origin",
                        "launcher": "the launcher's own page only (`app://launcher`)",
                        "posts": "the launcher's own page only (`app://launcher`)",
                        "identity": "the mobile-identity showcase's own page only (`pwakit identity showcase`, `app://identity`)",
                    ]
                    Console.write(
                        typescript
                            ? try TypeScriptDeclarations.render(schemas)
                            : try ModuleReference.render(schemas, availability: availability),
                        terminator: "")
                } catch {
                    throw CommandFailure(status: .invalid, code: "modules.schema", message: error.description)
                }
            }
            return
        }
        try CommandFailure.run(json: json) {
            let file: URL?
            if let path {
                file = try ConfigurationLoader.locate(URL(fileURLWithPath: path))
            } else {
                let here = URL(fileURLWithPath: ConfigurationLoader.fileName)
                file = FileManager.default.fileExists(atPath: here.path) ? here : nil
            }
            let configuration = try file.map { try ConfigurationLoader.load(from: $0) }
            let features = configuration?.features ?? FeatureFlags()
            let registry: ModuleRegistry
            do throws(RegistryError) {
                // The registry every host builds (`lifecycle`, the page's ready signal, included).
                registry = try HostModules.registry(
                    BuiltInModules.simulated() + AppFlags.modules(for: configuration), features: features)
            } catch {
                throw CommandFailure(status: .invalid, code: "modules.registry", message: error.description)
            }
            let schemas: [ModuleSchema]
            do throws(SchemaError) {
                schemas = try registry.schemas()
            } catch {
                throw CommandFailure(status: .invalid, code: "modules.schema", message: error.description)
            }
            let listing = Listing(
                configuration: file?.path, schemaHash: BridgeHandshake(registry: registry).schemaHash,
                modules: registry.descriptors, schemas: .array(schemas.map(\.json)))
            if json {
                Console.writeJSON(listing)
            } else {
                Console.write(Self.render(listing))
            }
        }
    }

    static func render(_ listing: Listing) -> String {
        let width = max(8, listing.modules.map(\.name.count).max() ?? 0)
        let own = listing.modules.filter { $0.aliasOf == nil }
        let aliases = listing.modules.count - own.count
        var lines = [
            "\(own.count) modules"
                + (aliases == 0 ? "" : " and \(aliases) aliases") + " (\(listing.configuration ?? "default feature flags"))"
        ]
        for module in listing.modules {
            let name = module.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let state = module.enabled ? "enabled " : "disabled"
            let flag = module.featureFlag.map { " [features.\($0)]" } ?? ""
            let alias = module.aliasOf.map { " (alias of \($0))" } ?? ""
            lines.append("  \(name)  \(state)  \(module.actions.joined(separator: ", "))\(flag)\(alias)")
        }
        lines.append("schema hash \(listing.schemaHash)")
        return lines.joined(separator: "\n")
    }
}
