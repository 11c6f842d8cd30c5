public import PWAKitCore

/// `print` [features.print]: prints the current page.
public struct PrintModule: ActionModule {
    /// `print`.
    public static let moduleName = "print"
    /// `print`.
    public static let featureFlag: String? = "print"
    /// One line for the reference.
    public static let summary = "Prints the current page through the system's print dialog."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("print.unavailable", "This host cannot print."),
        ModuleErrorCode("print.failed", "The print job failed."),
    ]
    /// `print`, `canPrint`.
    public static let actions = ModuleActions<PrintModule>()
        .action(
            "print", payload: PrintJob.self, result: PrintOutcome.self,
            summary: "Prints the page; `printed` is false when the user cancelled the dialog.",
            example: PrintJob(jobName: "Receipt")
        ) { module, job, context in
            guard await module.provider.canPrint() else {
                throw BridgeError(.module("print", "unavailable"), "this host cannot print")
            }
            return PrintOutcome(printed: try await module.provider.print(jobName: job.jobName ?? context.app.name))
        }
        .action("canPrint", result: PrintAbility.self, summary: "Whether printing is available.") { module, _ in
            PrintAbility(available: await module.provider.canPrint())
        }

    let provider: any PrintProvider

    /// Creates the module over `provider`.
    public init(provider: any PrintProvider) {
        self.provider = provider
    }
}

/// The payload of `print.print`.
public struct PrintJob: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The job's name (default: the app's name).
    public var jobName: String?
    /// Creates a payload.
    public init(jobName: String? = nil) { self.jobName = jobName }
    /// The limit.
    public static let fieldNotes = ["jobName": "1…256 bytes"]
    /// 1…256 bytes when present.
    public func validate() throws(BridgeError) {
        if let jobName { try FieldCheck.nonEmpty(jobName, "payload.jobName", maxBytes: 256) }
    }
}

/// The result of `print.print`.
public struct PrintOutcome: Codable, Sendable, Hashable {
    /// True when the job was sent; false when the user cancelled.
    public var printed: Bool
    /// ``printed`` under the PWAKit project's name.
    public private(set) var success: Bool

    /// The outcome: `printed` under both names.
    public init(printed: Bool) {
        self.printed = printed
        self.success = printed
    }
}

/// The result of `print.canPrint`.
public struct PrintAbility: Codable, Sendable, Hashable {
    /// Whether printing is available.
    public var available: Bool
    /// ``available`` under the PWAKit project's native name.
    public private(set) var canPrint: Bool

    /// The answer: `available` under both names.
    public init(available: Bool) {
        self.available = available
        self.canPrint = available
    }
}

/// Prints the current page.
public protocol PrintProvider: Sendable {
    /// Whether printing is available.
    func canPrint() async -> Bool
    /// Prints the page as `jobName`; false when the user cancelled.
    func print(jobName: String) async throws -> Bool
}
