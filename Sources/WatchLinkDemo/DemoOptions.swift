import WatchLink

/// Command-line options, parsed by hand: `--name value` pairs after the command.
struct DemoOptions {
    var command: String
    var values: [String: String] = [:]

    static let usage = """
        A phone and a watch as two processes over a Unix socket, or a chaos replay.

        usage: watchlink-demo watch --socket PATH --data DIR [--runs FILE] [--note-runs FILE]
               watchlink-demo phone --socket PATH --data DIR [--count N] [--notes N] [--strategy NAME] [--timeout SECONDS]
                   [--linger SECONDS] [--pace-ms MS] [--limit-file PATH] [--file PATH]
               watchlink-demo chaos [--seed N] [--requests N]
               watchlink-demo --help

        The watch listens on the socket and serves steps; the phone sends --count steps (8 in flight),
        sets the shared state "mood" to happy and then finished, and waits until the watch says it sees
        "finished" (or --timeout passes) before it exits. Both keep their queues in --data, so either may
        be killed and started again with the same arguments. With --notes N the phone then posts N durable
        fire-and-forget notes (one at a time, printing "posted n" as each is accepted) and prints each
        one's settlement ("note n ok", or its error code) before "done"; --pace-ms waits before each
        further step and note; --runs and --note-runs name files where the watch appends (and syncs)
        each step and note it runs.
        """

    /// Whether the arguments ask for help.
    static func wantsHelp(_ arguments: [String]) -> Bool {
        arguments.contains { ["--help", "-h", "help"].contains($0) }
    }

    init(_ arguments: [String]) throws(WatchLinkError) {
        guard let command = arguments.first, ["watch", "phone", "chaos"].contains(command) else {
            throw WatchLinkError(.invalidArgument, "expected a command: watch, phone or chaos", details: ["field": "command"])
        }
        self.command = command
        var rest = arguments.dropFirst()
        while let name = rest.popFirst() {
            guard name.hasPrefix("--"), let value = rest.popFirst() else {
                throw WatchLinkError(.invalidArgument, "expected --option value, got '\(name)'", details: ["field": name])
            }
            values[String(name.dropFirst(2))] = value
        }
    }

    func string(_ name: String) throws(WatchLinkError) -> String {
        guard let value = values[name], !value.isEmpty else {
            throw WatchLinkError(.invalidArgument, "missing --\(name)", details: ["field": name])
        }
        return value
    }

    func int(_ name: String, default fallback: Int) throws(WatchLinkError) -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text), value >= 0 else {
            throw WatchLinkError(
                .invalidArgument, "--\(name) must be a non-negative integer, got '\(text)'", details: ["field": name])
        }
        return value
    }

    func strategy() throws(WatchLinkError) -> DeliveryStrategy {
        guard let text = values["strategy"] else { return .userInfoOnly }
        guard let strategy = DeliveryStrategy(rawValue: text) else {
            let names = DeliveryStrategy.allCases.map(\.rawValue).joined(separator: ", ")
            throw WatchLinkError(.invalidArgument, "unknown strategy '\(text)'; one of \(names)", details: ["field": "strategy"])
        }
        return strategy
    }
}
