/// The most a link may hold before it is refused, so a hostile URL or push payload costs a
/// bounded amount of work.
///
/// Every check runs before any route is tried, in one pass over the text.
public struct RouteLimits: Sendable, Hashable {
    /// The longest URL, in bytes of its UTF-8 form (default 8 KiB).
    public var maximumURLLength: Int
    /// The most path segments, the universal-link path prefix included (default 64).
    public var maximumSegments: Int
    /// The most query items (default 64).
    public var maximumQueryItems: Int
    /// The largest push payload, in bytes (default 16 KiB).
    public var maximumPushPayloadSize: Int

    /// Limits; the defaults are ``standard``.
    public init(
        maximumURLLength: Int = 8192, maximumSegments: Int = 64, maximumQueryItems: Int = 64,
        maximumPushPayloadSize: Int = 16384
    ) {
        self.maximumURLLength = maximumURLLength
        self.maximumSegments = maximumSegments
        self.maximumQueryItems = maximumQueryItems
        self.maximumPushPayloadSize = maximumPushPayloadSize
    }

    /// 8 KiB URLs, 64 segments, 64 query items, 16 KiB push payloads.
    public static let standard = RouteLimits()
}
