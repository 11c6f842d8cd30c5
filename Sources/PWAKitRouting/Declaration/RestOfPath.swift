/// Every path segment left, captured as one `String` joined with `/`: `a/b/c` in `app/notes/a/b/c`.
///
/// It must be the last path part of its pattern. It matches zero segments too (the empty string),
/// keeps empty segments (`a//b`, and a trailing `/` as `a/`), and refuses `.` and `..` segments.
/// A `/` inside a segment (`%2F`) reads as a separator, so it is written back as one.
public struct RestOfPath: Sendable {
    /// The rest of the path.
    public init() {}
}
