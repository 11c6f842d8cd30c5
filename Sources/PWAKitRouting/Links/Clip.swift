/// Shortening of untrusted text before it goes into an error message, so a hostile URL cannot
/// make a message as long as itself.
enum Clip {
    /// `text` cut to `limit` characters, with `…` when cut.
    static func text(_ text: some StringProtocol, limit: Int = 80) -> String {
        text.count <= limit ? String(text) : String(text.prefix(limit)) + "…"
    }
}
