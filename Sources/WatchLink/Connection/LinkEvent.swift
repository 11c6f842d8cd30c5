public import Foundation

/// A diagnostic event of a ``WatchConnection``, for logs and dashboards.
///
/// A struct that can grow: new kinds of event may be added without breaking code that switches
/// over ``kind`` (such a switch needs a `default`). Each kind fills the properties its
/// documentation names; the others are `nil`.
public struct LinkEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public struct Kind: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The kind's stable name (`request_settled`).
        public let rawValue: String
        /// Creates a kind from its name.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The stable name.
        public var description: String { rawValue }

        /// A request was accepted into the outbox (``LinkEvent/requestID``).
        public static let requestAccepted = Kind(rawValue: "request_accepted")
        /// A request was settled (``LinkEvent/requestID``; ``LinkEvent/code`` `nil` on success).
        public static let requestSettled = Kind(rawValue: "request_settled")
        /// A request will be sent again (``LinkEvent/requestID``, ``LinkEvent/attempt``, ``LinkEvent/delay``).
        public static let retryScheduled = Kind(rawValue: "retry_scheduled")
        /// The outbox was full; its oldest request was dropped (``LinkEvent/requestID``).
        public static let outboxOverflow = Kind(rawValue: "outbox_overflow")
        /// The link's health changed (``LinkEvent/health``).
        public static let healthChanged = Kind(rawValue: "health_changed")
        /// A request was delivered again and answered from the inbox without running its handler
        /// (``LinkEvent/key``: its idempotency key).
        public static let duplicateSuppressed = Kind(rawValue: "duplicate_suppressed")
        /// A request was found started but unfinished after a restart and answered `outcome_unknown`
        /// (``LinkEvent/key``: its idempotency key).
        public static let outcomeUnknown = Kind(rawValue: "outcome_unknown")
        /// Concurrent shared-state updates were reconciled (``LinkEvent/key``: the state's key).
        public static let conflictResolved = Kind(rawValue: "conflict_resolved")
        /// A frame could not be decoded (``LinkEvent/error``).
        public static let invalidFrame = Kind(rawValue: "invalid_frame")
        /// Activation completed.
        public static let activated = Kind(rawValue: "activated")
        /// Reachability changed (``LinkEvent/isReachable``).
        public static let reachabilityChanged = Kind(rawValue: "reachability_changed")
        /// The answer to a request its caller had cancelled after it was sent arrived, and was
        /// dropped (``LinkEvent/requestID``).
        public static let lateResponseDropped = Kind(rawValue: "late_response_dropped")
        /// A file from the counterpart was copied into the file inbox (``LinkEvent/file``).
        public static let fileReceived = Kind(rawValue: "file_received")
        /// One of this device's file transfers finished (``LinkEvent/requestID``: the transfer's
        /// id; ``LinkEvent/code`` `nil` when delivered).
        public static let fileTransferFinished = Kind(rawValue: "file_transfer_finished")
        /// A file from the counterpart was refused, malformed, hostile or not storable (``LinkEvent/error``).
        public static let fileRejected = Kind(rawValue: "file_rejected")
    }

    /// What happened.
    public let kind: Kind
    /// The request (or file transfer) concerned.
    public let requestID: UUID?
    /// The outcome's error code; `nil` on success or when the kind has no outcome.
    public let code: WatchLinkError.Code?
    /// The attempt a retry will be (from 1).
    public let attempt: Int?
    /// The wait before a retry.
    public let delay: Duration?
    /// The link's new health.
    public let health: LinkHealth?
    /// An idempotency key or a shared-state key.
    public let key: String?
    /// The error of a refused frame or file.
    public let error: WatchLinkError?
    /// The new reachability.
    public let isReachable: Bool?
    /// A received file.
    public let file: FileTransfer?

    package init(
        _ kind: Kind, requestID: UUID? = nil, code: WatchLinkError.Code? = nil, attempt: Int? = nil, delay: Duration? = nil,
        health: LinkHealth? = nil, key: String? = nil, error: WatchLinkError? = nil, isReachable: Bool? = nil,
        file: FileTransfer? = nil
    ) {
        self.kind = kind
        self.requestID = requestID
        self.code = code
        self.attempt = attempt
        self.delay = delay
        self.health = health
        self.key = key
        self.error = error
        self.isReachable = isReachable
        self.file = file
    }

    /// The kind and its filled properties (`request_settled id=… code=timeout`).
    public var description: String {
        var parts = [kind.rawValue]
        if let requestID { parts.append("id=\(requestID)") }
        if let code { parts.append("code=\(code)") }
        if let attempt { parts.append("attempt=\(attempt)") }
        if let delay { parts.append("delay=\(delay)") }
        if let health { parts.append("health=\(health.rawValue)") }
        if let key { parts.append("key=\(key)") }
        if let error { parts.append("error=\(error.code)") }
        if let isReachable { parts.append("reachable=\(isReachable)") }
        if let file { parts.append("file=\(file.fileName)") }
        return parts.joined(separator: " ")
    }

    /// ``Kind/requestAccepted``.
    public static func requestAccepted(_ id: UUID) -> LinkEvent { LinkEvent(.requestAccepted, requestID: id) }
    /// ``Kind/requestSettled``.
    public static func requestSettled(_ id: UUID, _ code: WatchLinkError.Code?) -> LinkEvent {
        LinkEvent(.requestSettled, requestID: id, code: code)
    }
    /// ``Kind/retryScheduled``.
    public static func retryScheduled(_ id: UUID, attempt: Int, delay: Duration) -> LinkEvent {
        LinkEvent(.retryScheduled, requestID: id, attempt: attempt, delay: delay)
    }
    /// ``Kind/outboxOverflow``.
    public static func outboxOverflow(_ id: UUID) -> LinkEvent { LinkEvent(.outboxOverflow, requestID: id) }
    /// ``Kind/healthChanged``.
    public static func healthChanged(_ health: LinkHealth) -> LinkEvent { LinkEvent(.healthChanged, health: health) }
    /// ``Kind/duplicateSuppressed``.
    public static func duplicateSuppressed(idempotencyKey: String) -> LinkEvent {
        LinkEvent(.duplicateSuppressed, key: idempotencyKey)
    }
    /// ``Kind/outcomeUnknown``.
    public static func outcomeUnknown(idempotencyKey: String) -> LinkEvent { LinkEvent(.outcomeUnknown, key: idempotencyKey) }
    /// ``Kind/conflictResolved``.
    public static func conflictResolved(key: String) -> LinkEvent { LinkEvent(.conflictResolved, key: key) }
    /// ``Kind/invalidFrame``.
    public static func invalidFrame(_ error: WatchLinkError) -> LinkEvent { LinkEvent(.invalidFrame, error: error) }
    /// ``Kind/activated``.
    public static let activated = LinkEvent(.activated)
    /// ``Kind/reachabilityChanged``.
    public static func reachabilityChanged(_ isReachable: Bool) -> LinkEvent {
        LinkEvent(.reachabilityChanged, isReachable: isReachable)
    }
    /// ``Kind/lateResponseDropped``.
    public static func lateResponseDropped(_ id: UUID) -> LinkEvent { LinkEvent(.lateResponseDropped, requestID: id) }
    /// ``Kind/fileReceived``.
    public static func fileReceived(_ file: FileTransfer) -> LinkEvent { LinkEvent(.fileReceived, file: file) }
    /// ``Kind/fileTransferFinished``.
    public static func fileTransferFinished(_ id: UUID, _ code: WatchLinkError.Code?) -> LinkEvent {
        LinkEvent(.fileTransferFinished, requestID: id, code: code)
    }
    /// ``Kind/fileRejected``.
    public static func fileRejected(_ error: WatchLinkError) -> LinkEvent { LinkEvent(.fileRejected, error: error) }
}
