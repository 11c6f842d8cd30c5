import Foundation

/// A link without its scheme and host: decoded path segments (after any universal-link prefix)
/// and decoded query items, in order. What ``Routes`` match and print.
struct RoutePath: Sendable, Hashable {
    /// The decoded path segments; empty for the root.
    var segments: [String]
    /// The decoded query items.
    var query: [URLQueryItem]

    /// The path as it would be written, for messages.
    var summary: String {
        Clip.text(segments.map(PercentEncoding.encode).joined(separator: "/"))
    }
}
