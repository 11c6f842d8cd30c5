/// The payload size limits WatchConnectivity enforces (observed, undocumented).
public enum SessionLimits {
    /// Largest `sendMessage` payload, in bytes.
    public static let message = 65_536
    /// Largest `transferUserInfo` payload, in bytes.
    public static let userInfo = 65_536
    /// Largest `updateApplicationContext` payload, in bytes.
    public static let applicationContext = 262_144
    /// Largest `transferFile` file, in bytes (64 MiB; WatchConnectivity documents none, a transport needs one).
    public static let file: Int64 = 67_108_864
    /// Largest metadata of a file transfer (keys plus values, UTF-8), in bytes.
    public static let fileMetadata = 65_536

    /// The limit of `channel`.
    public static func limit(for channel: SessionChannel) -> Int {
        switch channel {
        case .message: message
        case .userInfo: userInfo
        case .applicationContext: applicationContext
        }
    }

    /// Throws `payload_too_large` when `size` exceeds the limit of `channel`.
    public static func check(_ size: Int, on channel: SessionChannel) throws(WatchLinkError) {
        let limit = limit(for: channel)
        if size > limit {
            throw WatchLinkError(
                .payloadTooLarge, "\(size) bytes exceed the \(channel) limit of \(limit)",
                details: ["field": "payload", "channel": channel.rawValue, "limit": String(limit)])
        }
    }
}

extension SessionLimits {
    /// Throws `payload_too_large`, naming the `file`, when `size` exceeds ``file``.
    public static func checkFile(_ size: Int64) throws(WatchLinkError) {
        if size > file {
            throw WatchLinkError(
                .payloadTooLarge, "file of \(size) bytes exceeds the limit of \(file)",
                details: ["field": "file", "limit": String(file)])
        }
    }
}

/// The data channels of a session.
public enum SessionChannel: String, Hashable, Sendable, Codable, CaseIterable {
    /// Live messages: only while reachable, ordered, not persisted.
    case message
    /// Queued transfers: FIFO, delivered while unreachable later, survive restarts.
    case userInfo
    /// The application context: latest value wins, persisted.
    case applicationContext
}

/// The activation state of a session, as in WatchConnectivity.
public enum SessionActivationState: String, Hashable, Sendable, Codable {
    /// `activate()` has not completed.
    case notActivated
    /// The session is switching counterparts and cannot transfer.
    case inactive
    /// The session can transfer.
    case activated
}

/// Which device a piece of data originates from.
public enum DeviceOrigin: String, Hashable, Sendable, Codable, Comparable {
    /// The iPhone side.
    case phone
    /// The Apple Watch side.
    case watch

    /// The other device.
    public var counterpart: DeviceOrigin { self == .phone ? .watch : .phone }

    /// Orders phone before watch, for deterministic tie-breaks.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs == .phone && rhs == .watch }
}
