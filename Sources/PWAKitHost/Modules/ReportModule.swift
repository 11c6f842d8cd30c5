public import PWAKitCore

/// The `report` module a host registers in test mode (`pwakit run --report`): a test page
/// writes lines to the host's standard output and ends the run with its verdict, so tests
/// read results from the page itself, never from sleeps.
public struct ReportModule: ActionModule {
    /// `report`.
    public static let moduleName = "report"

    /// The actions: `log {message, data?}`, `finish {passed, failed, data?}`, `hold {ms, label?}`
    /// and `hideAndShow`.
    public static let actions = ModuleActions<ReportModule>()
        .action("log", payload: Line.self, result: Bool.self, example: Line(message: "step 1 done", data: nil)) {
            module, line, context in
            module.sink(.log(line, origin: context.caller.origin))
            return true
        }
        .action("finish", payload: Verdict.self, result: Bool.self, example: Verdict(passed: 12, failed: 0, data: nil)) {
            module, verdict, context in
            for (count, field) in [(verdict.passed, "passed"), (verdict.failed, "failed")] where count < 0 {
                throw BridgeError.field(.invalidPayload, path: "payload.\(field)", "must not be negative, got \(count)")
            }
            module.sink(.finish(verdict, origin: context.caller.origin))
            return true
        }
        .action("hold", payload: Hold.self, result: Bool.self, example: Hold(ms: 1000, label: "slow call")) {
            module, hold, context in
            // A call that stays open, so pages can test timeouts, cancellation and what a
            // navigation does to calls in flight; the host prints how it ended.
            guard (0...600_000).contains(hold.ms) else {
                throw BridgeError.field(.invalidPayload, path: "payload.ms", "must be 0…600000")
            }
            do {
                try await Task.sleep(for: .milliseconds(hold.ms))
            } catch {
                module.sink(.held(label: hold.label, completed: false, origin: context.caller.origin))
                throw error
            }
            module.sink(.held(label: hold.label, completed: true, origin: context.caller.origin))
            return true
        }
        .action("hideAndShow", result: Bool.self) { module, context in
            // Hides the host's window and shows it again, so a page can test what it does when it
            // is hidden (two `visibilitychange` events); a host without a window ignores it.
            module.sink(.hideAndShow(origin: context.caller.origin))
            return true
        }

    /// How long `hold` keeps a call open.
    public struct Hold: Codable, Sendable, Hashable {
        /// Milliseconds, 0…600000.
        public var ms: Int
        /// A label printed when the call ends.
        public var label: String?
    }

    /// One line of a test page's output.
    public struct Line: Codable, Sendable, Hashable {
        /// What the page says.
        public var message: String
        /// Anything the page attaches.
        public var data: JSONValue?
    }

    /// A test page's verdict.
    public struct Verdict: Codable, Sendable, Hashable {
        /// Checks that held.
        public var passed: Int
        /// Checks that failed.
        public var failed: Int
        /// Anything the page attaches (per-check results).
        public var data: JSONValue?
    }

    /// What a page reported.
    public enum Entry: Sendable, Hashable {
        /// A line.
        case log(Line, origin: String)
        /// The verdict; the run ends.
        case finish(Verdict, origin: String)
        /// A `hold` call ended: it ran its time, or it was cancelled.
        case held(label: String?, completed: Bool, origin: String)
        /// The page asked the host to hide its window and show it again.
        case hideAndShow(origin: String)
    }

    /// Receives each entry.
    public let sink: @Sendable (Entry) -> Void

    /// A module that hands every entry to `sink`.
    public init(sink: @escaping @Sendable (Entry) -> Void) {
        self.sink = sink
    }
}
