public import Foundation
import Synchronization

extension WatchConnection {
    /// Queues the file at `url` for the counterpart, with `metadata`; see ``WatchSession/transferFile(_:metadata:)``.
    ///
    /// The session owns the transfer from here: it survives restarts (in the socket transport and
    /// WatchConnectivity), and its end appears in ``events()`` as `fileTransferFinished`. The
    /// counterpart's connection copies the file into its ``fileInbox`` and yields it from ``receivedFiles()``.
    /// - Throws: `cancelled` when the connection is not running, `not_activated` before the session
    ///   activated, `invalid_argument` naming `fileName` or `metadata`, `file_unreadable` or
    ///   `payload_too_large` naming `file` or `metadata`.
    // NB: transferring and cancelling go to the session off the connection's jobs: a session may
    // call its delegate from within them (under a lock), and a job may be running inside one of
    // its callbacks — so may a task that prefers ``taskExecutor``, which runs as a job. (And a
    // transfer copies and syncs the file, which no job should wait for.)
    public func transferFile(_ url: URL, metadata: [String: String] = [:]) async throws(WatchLinkError) -> FileTransfer {
        let (lifecycle, storageError) = flags.withLock { ($0.lifecycle, $0.storageError) }
        if let storageError { throw storageError }
        guard lifecycle == .running else { throw WatchLinkError(.cancelled, "connection is not running; call start()") }
        let session = self.session
        return try await offTheConnection { () -> Result<FileTransfer, WatchLinkError> in
            do throws(WatchLinkError) { return .success(try session.transferFile(url, metadata: metadata)) } catch {
                return .failure(error)
            }
        }.get()
    }

    /// File transfers from this device not yet delivered, oldest first.
    // NB: the two reads call no delegate back, so they stay on the caller's thread.
    public var outstandingFileTransfers: [FileTransfer] {
        get async { session.outstandingFileTransfers }
    }

    /// The progress of an outstanding file transfer; `nil` once it finished.
    public func progress(ofFileTransfer id: UUID) async -> FileTransferProgress? { session.progress(ofFileTransfer: id) }

    /// Cancels an outstanding file transfer; it finishes with `cancelled` unless its last byte was already on its way.
    public func cancelFileTransfer(_ id: UUID) async {
        let session = self.session
        await offTheConnection { session.cancelFileTransfer(id) }
    }

    /// Runs `body` in a task of its own on the global executor, never as one of the connection's
    /// jobs (what a caller preferring ``taskExecutor`` runs as), so never inside a session callback.
    private func offTheConnection<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await Task.detached(operation: body).value
    }

    /// A stream of the files copied into ``fileInbox`` from now on (each once, however often it was
    /// delivered); it ends when the connection stops (at once, if it has stopped already).
    ///
    /// Files received while nobody listened, or before a restart, are in ``FileInbox/files()``.
    public func receivedFiles() async -> AsyncStream<ReceivedFile> {
        let (stream, continuation) = AsyncStream.makeStream(of: ReceivedFile.self, bufferingPolicy: .bufferingNewest(1024))
        let id = UUID()
        await queue.perform {
            // NB: a stopped connection receives no more files: the stream ends at once.
            guard self.lifecycle != .stopped else { return continuation.finish() }
            self.fileContinuations[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            self.queue.runElsewhere { self.fileContinuations[id] = nil }
        }
        return stream
    }
}
