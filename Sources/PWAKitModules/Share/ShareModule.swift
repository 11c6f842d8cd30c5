public import Foundation
public import PWAKitCore

/// `share` [features.share]: the system share sheet (the Web Share API's shape).
public struct ShareModule: ActionModule {
    /// `share`.
    public static let moduleName = "share"
    /// `share`.
    public static let featureFlag: String? = "share"
    /// One line for the reference.
    public static let summary = "The system share sheet for text, a URL and files (the Web Share API's shape)."
    /// The module's own error codes.
    public static let errorCodes = [ModuleErrorCode("share.unavailable", "This host has no way to share.")]
    /// `share`, `canShare`.
    public static let actions = ModuleActions<ShareModule>()
        .action(
            "share", payload: ShareRequest.self, result: ShareOutcome.self,
            summary: "Opens the share sheet; `shared` is false when the user dismissed it (a normal outcome, not an error).",
            example: ShareRequest(title: "PWAKit", text: "Have a look", url: "https://example.com/")
        ) { module, request, _ in
            guard await module.provider.canShare(request) else {
                throw BridgeError(.module("share", "unavailable"), "this host cannot share this content")
            }
            return ShareOutcome(shared: try await module.provider.share(request))
        }
        .action(
            "canShare", payload: ShareQuery.self, result: ShareAbility.self,
            summary: "Whether `share` would accept this content (or, with no fields, whether sharing exists at all).",
            example: ShareQuery(text: "Have a look")
        ) { module, query, _ in
            ShareAbility(canShare: await module.provider.canShare(query.request))
        }

    let provider: any ShareProvider

    /// Creates the module over `provider`.
    public init(provider: any ShareProvider) {
        self.provider = provider
    }
}

/// The payload of `share.share`: at least one of `text`, `url` and `files`.
public struct ShareRequest: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// A title for the share sheet.
    public var title: String?
    /// Text to share.
    public var text: String?
    /// An absolute URL to share.
    public var url: String?
    /// Files to share.
    public var files: [SharedFile]?

    /// Creates a request.
    public init(title: String? = nil, text: String? = nil, url: String? = nil, files: [SharedFile]? = nil) {
        self.title = title
        self.text = text
        self.url = url
        self.files = files
    }

    /// The limits.
    public static let fieldNotes = [
        "title": "at most 1024 bytes", "text": "at most 64 KiB", "url": "an absolute URL, at most 8 KiB",
        "files": "at most 10 files",
    ]

    /// At least one of text, url, files; lengths; files well formed.
    public func validate() throws(BridgeError) {
        try check(requireContent: true)
    }

    func check(requireContent: Bool) throws(BridgeError) {
        if requireContent, text == nil, url == nil, (files ?? []).isEmpty {
            throw .field(.invalidPayload, path: "payload", "needs at least one of text, url and files")
        }
        try FieldCheck.length(title, "payload.title", maxBytes: 1024)
        try FieldCheck.length(text, "payload.text", maxBytes: 65_536)
        if let url {
            try FieldCheck.nonEmpty(url, "payload.url", maxBytes: 8192)
            guard let parsed = URL(string: url), let scheme = parsed.scheme, !scheme.isEmpty else {
                throw .field(.invalidPayload, path: "payload.url", "must be an absolute URL")
            }
        }
        if let files {
            if files.count > 10 { throw .field(.invalidPayload, path: "payload.files", "at most 10 files") }
            for (index, file) in files.enumerated() { try file.validate(path: "payload.files[\(index)]") }
        }
    }
}

/// A file to share.
public struct SharedFile: Codable, Sendable, Hashable, SchemaFieldNotes {
    /// Its name, without a path.
    public var name: String
    /// Its media type, e.g. `image/png`.
    public var type: String
    /// Its bytes.
    public var data: Base64Data

    /// Creates a file.
    public init(name: String, type: String, data: Data) {
        self.name = name
        self.type = type
        self.data = Base64Data(data)
    }

    /// The rules.
    public static let fieldNotes = [
        "name": "1…255 bytes, no `/`, `\\\\` or NUL, not `.` or `..`", "type": "a media type `type/subtype`",
    ]

    func validate(path: String) throws(BridgeError) {
        try FieldCheck.nonEmpty(name, "\(path).name", maxBytes: 255)
        if name == "." || name == ".." || name.contains(where: { $0 == "/" || $0 == "\\" || $0 == "\0" }) {
            throw .field(.invalidPayload, path: "\(path).name", "must be a plain file name")
        }
        let parts = type.split(separator: "/", omittingEmptySubsequences: false)
        if parts.count != 2 || parts.contains(where: \.isEmpty) || type.utf8.count > 255 || type.contains(" ") {
            throw .field(.invalidPayload, path: "\(path).type", "must be a media type like image/png")
        }
    }
}

/// The payload of `share.canShare`: like ``ShareRequest`` with every field optional.
public struct ShareQuery: Codable, Sendable, Hashable, ValidatedPayload {
    /// A title.
    public var title: String?
    /// Text.
    public var text: String?
    /// A URL.
    public var url: String?
    /// Files.
    public var files: [SharedFile]?

    /// Creates a query.
    public init(title: String? = nil, text: String? = nil, url: String? = nil, files: [SharedFile]? = nil) {
        self.title = title
        self.text = text
        self.url = url
        self.files = files
    }

    var request: ShareRequest { ShareRequest(title: title, text: text, url: url, files: files) }

    /// The same rules as ``ShareRequest``, except that no field is required.
    public func validate() throws(BridgeError) {
        try request.check(requireContent: false)
    }
}

/// The result of `share.share`.
public struct ShareOutcome: Codable, Sendable, Hashable {
    /// True when the content was shared; false when the user dismissed the sheet.
    public var shared: Bool
    /// ``shared`` under the PWAKit project's name.
    public private(set) var completed: Bool

    /// The outcome: `shared` under both names.
    public init(shared: Bool) {
        self.shared = shared
        self.completed = shared
    }
}

/// The result of `share.canShare`.
public struct ShareAbility: Codable, Sendable, Hashable {
    /// Whether `share` would accept the content.
    public var canShare: Bool
    /// ``canShare`` under the PWAKit project's name.
    public private(set) var available: Bool

    /// The answer: `canShare` under both names.
    public init(canShare: Bool) {
        self.canShare = canShare
        self.available = canShare
    }
}

/// Presents the share sheet.
public protocol ShareProvider: Sendable {
    /// Whether `request` can be shared (an empty request asks whether sharing exists at all).
    func canShare(_ request: ShareRequest) async -> Bool
    /// Shares `request`; returns false when the user dismissed the sheet.
    func share(_ request: ShareRequest) async throws -> Bool
}
