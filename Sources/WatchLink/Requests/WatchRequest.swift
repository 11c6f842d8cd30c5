/// A typed request one device sends to the other, answered with a ``Response``.
///
/// Each request type is identified on the wire by ``typeKey``. The default is the
/// module-qualified type name (`MyApp.FetchUser`), which does not collide across modules;
/// override it to keep the key stable when a type is renamed or moved.
public protocol WatchRequest: Codable, Sendable {
    /// The value the receiving handler returns.
    associatedtype Response: Codable, Sendable

    /// The stable key that routes this request to its handler.
    static var typeKey: WatchTypeKey { get }
}

extension WatchRequest {
    /// The module-qualified type name, for example `MyApp.FetchUser`.
    public static var typeKey: WatchTypeKey { WatchTypeKey(String(reflecting: Self.self)) }
}

/// A request that expects no answer beyond delivery; send it with `WatchConnection.post`.
public protocol WatchFireAndForget: WatchRequest where Response == WatchAck {}

/// The empty response of a fire-and-forget request: proof of delivery and execution.
public struct WatchAck: Codable, Sendable, Hashable {
    /// Creates an acknowledgement.
    public init() {}
}
