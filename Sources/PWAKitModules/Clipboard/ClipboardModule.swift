public import PWAKitCore

/// `clipboard` [features.clipboard]: plain text on the system clipboard.
public struct ClipboardModule: ActionModule {
    /// `clipboard`.
    public static let moduleName = "clipboard"
    /// `clipboard`.
    public static let featureFlag: String? = "clipboard"
    /// One line for the reference.
    public static let summary = "Reads and writes plain text on the system clipboard."
    /// The module's own error codes.
    public static let errorCodes = [ModuleErrorCode("clipboard.unavailable", "The clipboard cannot be reached.")]
    /// `write`, `read`.
    public static let actions = ModuleActions<ClipboardModule>()
        .action(
            "write", payload: ClipboardText.self, result: NoResult.self, summary: "Puts `text` on the clipboard.",
            example: ClipboardText(text: "Copied from PWAKit")
        ) { module, clip, _ in
            try await module.provider.write(clip.text)
            return NoResult()
        }
        .action("read", result: ClipboardContents.self, summary: "The clipboard's text; `text` is absent when it holds none.") {
            module, _ in
            ClipboardContents(text: try await module.provider.read())
        }

    let provider: any ClipboardProvider

    /// Creates the module over `provider`.
    public init(provider: any ClipboardProvider) {
        self.provider = provider
    }
}

/// The payload of `clipboard.write`.
public struct ClipboardText: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The text.
    public var text: String
    /// Creates a payload.
    public init(text: String) { self.text = text }
    /// The limit.
    public static let fieldNotes = ["text": "at most 512 KiB"]
    /// At most 512 KiB.
    public func validate() throws(BridgeError) { try FieldCheck.length(text, "payload.text", maxBytes: 524_288) }
}

/// The result of `clipboard.read`.
public struct ClipboardContents: Codable, Sendable, Hashable {
    /// The text, null when the clipboard holds no text.
    public var text: String?

    /// Creates a result.
    public init(text: String?) { self.text = text }

    private enum CodingKeys: String, CodingKey { case text }

    /// Encodes `text` even when there is none (`{"text": null}`).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(text, forKey: .text)
    }
}

/// The system clipboard.
public protocol ClipboardProvider: Sendable {
    /// Puts `text` on the clipboard.
    func write(_ text: String) async throws
    /// The clipboard's text, if it holds text.
    func read() async throws -> String?
}
