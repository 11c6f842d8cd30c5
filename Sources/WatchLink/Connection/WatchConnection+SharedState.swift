import Foundation

/// Shared state: the typed handles a connection hands out, and their updates, each durable
/// before it is reported done.
extension WatchConnection {
    /// The shared state `key`, created with `initial` until a stored or remote value exists.
    ///
    /// - Throws: `invalid_argument` if `key` is empty or already used with another value type.
    public func sharedState<Value: Codable & Sendable>(
        _ key: String, initial: Value, strategy: ConflictStrategy<Value> = .latestWins
    ) async throws(WatchLinkError) -> SharedState<Value> {
        guard !key.isEmpty, key.utf8.count <= 128 else {
            throw WatchLinkError(.invalidArgument, "state key must be 1-128 bytes", details: ["field": "key"])
        }
        return try await queue.perform { self.sharedStateNow(key, initial: initial, strategy: strategy) }.get()
    }

    private func sharedStateNow<Value: Codable & Sendable>(
        _ key: String, initial: Value, strategy: ConflictStrategy<Value>
    ) -> Result<SharedState<Value>, WatchLinkError> {
        if let existing = sharedStates[key] {
            guard let typed = existing as? SharedState<Value> else {
                return .failure(
                    WatchLinkError(
                        .invalidArgument, "state key '\(key)' is already used with another type", details: ["field": "key"]))
            }
            return .success(typed)
        }
        let state = SharedState(key: key, initial: initial, connection: self)
        sharedStates[key] = state
        engine.registerState(key, resolution: strategy.resolution)
        if let entry = engine.stateEntry(key) { state.apply(entry) }
        state.setUnconfirmed(engine.isUnconfirmed(key))
        return .success(state)
    }

    func updateState(_ key: String, data: Data) async throws(WatchLinkError) {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Void, WatchLinkError>, Never>) in
            queue.run { self.updateStateNow(key, data: data) { continuation.resume(returning: $0) } }
        }
        try result.get()
    }

    /// Applies and records the update, and calls `done` once it is durable (or failed).
    private func updateStateNow(_ key: String, data: Data, done: @escaping (Result<Void, WatchLinkError>) -> Void) {
        if let storageError { return done(.failure(storageError)) }
        // NB: not before `start()` either: an engine that has not read its log would version the
        // update below what the log holds, and recovery would then drop it.
        guard lifecycle == .running else {
            return done(.failure(WatchLinkError(.cancelled, "connection is not running; call start()")))
        }
        do throws(WatchLinkError) { try engine.checkStateFits(key, value: data) } catch { return done(.failure(error)) }
        afterSync(commit([engine.updateState(key, value: data, now: currentTime())])) { error in
            done(error.map { .failure($0) } ?? .success(()))
        }
    }
}

/// A shared state the connection can push entries into, whatever its value type.
protocol SharedStateSink: Sendable {
    func apply(_ entry: StateEntry)
    func setUnconfirmed(_ unconfirmed: Bool)
}

extension SharedState: SharedStateSink {}
