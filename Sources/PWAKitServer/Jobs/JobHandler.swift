/// Runs the jobs of one kind. Returning completes the job; throwing fails this attempt, which is
/// tried again after a backoff until the job's attempts run out; ``PermanentJobFailure`` ends it at
/// once (retrying cannot help: a page that is gone, a URL that is refused).
public protocol JobHandler: Sendable {
    /// The kind of job it runs (`ingest_post`).
    var kind: String { get }
    /// Does the job. It may be cancelled when its lease is lost (another worker now holds the job).
    func run(_ job: JobRecord) async throws
}

/// A failure no retry can fix: the job is dead after this attempt.
public struct PermanentJobFailure: Error, Sendable, CustomStringConvertible {
    /// Why.
    public let message: String

    /// Creates a failure.
    public init(_ message: String) { self.message = message }

    /// The message.
    public var description: String { message }
}
