public import Observation
import Synchronization

/// The observable state of a ``WatchConnection``: activation, reachability, pending requests, health.
///
/// Conforms to `Observation.Observable` by hand (rather than with the macro) so it can be
/// `Sendable` and updated by the connection's jobs while views read it anywhere.
public final class WatchLinkStatus: Observable, Sendable {
    /// A consistent copy of every property.
    public struct Snapshot: Sendable, Hashable {
        /// The session's activation state.
        public var activationState: SessionActivationState = .notActivated
        /// Whether live messages can be sent.
        public var isReachable = false
        /// Requests waiting in the outbox.
        public var pendingCount = 0
        /// Link health.
        public var health: LinkHealth = .healthy
    }

    private let registrar = ObservationRegistrar()
    private let storage = Mutex(Snapshot())

    /// Creates a status in its initial state.
    public init() {}

    /// All properties at once.
    public var snapshot: Snapshot { storage.withLock { $0 } }

    /// The session's activation state.
    public var activationState: SessionActivationState {
        registrar.access(self, keyPath: \.activationState)
        return storage.withLock { $0.activationState }
    }

    /// Whether live messages can be sent.
    public var isReachable: Bool {
        registrar.access(self, keyPath: \.isReachable)
        return storage.withLock { $0.isReachable }
    }

    /// Requests waiting in the outbox.
    public var pendingCount: Int {
        registrar.access(self, keyPath: \.pendingCount)
        return storage.withLock { $0.pendingCount }
    }

    /// Link health.
    public var health: LinkHealth {
        registrar.access(self, keyPath: \.health)
        return storage.withLock { $0.health }
    }

    /// What to suggest to the user, if the link is not healthy.
    public var recoverySuggestion: String? { health.recoverySuggestion }

    func update(_ new: Snapshot) {
        let old = snapshot
        if old.activationState != new.activationState {
            registrar.withMutation(of: self, keyPath: \.activationState) {
                storage.withLock { $0.activationState = new.activationState }
            }
        }
        if old.isReachable != new.isReachable {
            registrar.withMutation(of: self, keyPath: \.isReachable) { storage.withLock { $0.isReachable = new.isReachable } }
        }
        if old.pendingCount != new.pendingCount {
            registrar.withMutation(of: self, keyPath: \.pendingCount) { storage.withLock { $0.pendingCount = new.pendingCount } }
        }
        if old.health != new.health {
            registrar.withMutation(of: self, keyPath: \.health) { storage.withLock { $0.health = new.health } }
        }
    }
}
