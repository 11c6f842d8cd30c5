import Foundation
public import Observation
import Synchronization

/// A value kept in sync between phone and watch, with versions and conflict resolution.
///
/// Create one with ``WatchConnection/sharedState(_:initial:strategy:)``. Local updates are
/// saved durably, coalesced and published; remote updates are applied only when newer, and
/// concurrent ones are reconciled by the strategy identically on both devices.
public final class SharedState<Value: Codable & Sendable>: Observable, Sendable {
    struct Storage: Sendable {
        var value: Value
        var version: StateVersion?
        var unconfirmed = false
    }

    /// The state's key; distinct keys never clobber each other.
    public let key: String
    private let registrar = ObservationRegistrar()
    private let storage: Mutex<Storage>
    private let connection: WatchConnection

    init(key: String, initial: Value, connection: WatchConnection) {
        self.key = key
        self.connection = connection
        self.storage = Mutex(Storage(value: initial))
    }

    /// The current value.
    public var value: Value {
        registrar.access(self, keyPath: \.value)
        return storage.withLock { $0.value }
    }

    /// The current value's version, or `nil` before the first update.
    public var version: StateVersion? {
        registrar.access(self, keyPath: \.version)
        return storage.withLock { $0.version }
    }

    /// Whether the counterpart has not yet confirmed the current value.
    public var hasUnconfirmedChanges: Bool {
        registrar.access(self, keyPath: \.hasUnconfirmedChanges)
        return storage.withLock { $0.unconfirmed }
    }

    /// Sets the value locally and publishes it.
    ///
    /// - Throws: `payload_too_large` if the application context would exceed 262,144 bytes
    ///   (the value is not applied), `storage_failed` if it could not be saved, `cancelled` before
    ///   the connection's `start()` or after its `stop()`.
    public func update(_ newValue: Value) async throws(WatchLinkError) {
        let data = try WireCodec.encodeValue(newValue)
        try await connection.updateState(key, data: data)
    }

    func apply(_ entry: StateEntry) {
        guard let decoded = try? JSONDecoder().decode(Value.self, from: entry.value) else { return }
        registrar.withMutation(of: self, keyPath: \.value) {
            registrar.withMutation(of: self, keyPath: \.version) {
                storage.withLock {
                    $0.value = decoded
                    $0.version = entry.version
                }
            }
        }
    }

    func setUnconfirmed(_ unconfirmed: Bool) {
        guard storage.withLock({ $0.unconfirmed }) != unconfirmed else { return }
        registrar.withMutation(of: self, keyPath: \.hasUnconfirmedChanges) { storage.withLock { $0.unconfirmed = unconfirmed } }
    }
}
