public import Foundation
import Synchronization

/// A type-erased request handler: request payload in, response payload out, in ``WatchPayload``'s
/// encoding (or JSON, from a peer of an earlier version; ``WatchPayload/decode(_:from:field:)``
/// reads both).
public typealias ErasedHandler = @Sendable (Data) async throws(WatchLinkError) -> Data

/// A type-erased synchronous handler, run inline on the thread that received its request.
public typealias ErasedInlineHandler = @Sendable (Data) throws(WatchLinkError) -> Data

/// The handlers a device serves, keyed by ``WatchTypeKey``.
///
/// Registering a second handler for a key is an error, never a silent replacement.
public final class HandlerRegistry: Sendable {
    /// A registered handler: synchronous and run inline, or asynchronous.
    package enum Entry: Sendable {
        case inline(ErasedInlineHandler)
        case async(ErasedHandler)
    }

    private let handlers = Mutex<[WatchTypeKey: Entry]>([:])

    /// Creates an empty registry.
    public init() {}

    /// Registers `handler` for requests of type `R`.
    ///
    /// - Throws: `duplicate_registration` when `R.typeKey` already has a handler.
    public func register<R: WatchRequest>(
        _ type: R.Type, handler: @escaping @Sendable (R) async throws -> R.Response
    ) throws(WatchLinkError) {
        try registerErased(R.typeKey) { (data: Data) throws(WatchLinkError) -> Data in
            let request: R = try WireCodec.decodeValue(R.self, from: data, field: "payload")
            let response: R.Response
            do {
                response = try await handler(request)
            } catch let error as WatchLinkError {
                throw error
            } catch {
                throw WatchLinkError(.handlerFailed, String(describing: error), details: ["typeKey": R.typeKey.rawValue])
            }
            return try WatchPayload.encode(response, answering: data)
        }
    }

    /// Registers a synchronous `handler` for requests of type `R`, run inline on the thread that
    /// received its request.
    ///
    /// - Throws: `duplicate_registration` when `R.typeKey` already has a handler.
    public func register<R: WatchRequest>(
        _ type: R.Type, inline handler: @escaping @Sendable (R) throws -> R.Response
    ) throws(WatchLinkError) {
        try insert(
            R.typeKey,
            .inline { (data: Data) throws(WatchLinkError) -> Data in
                let request: R = try WireCodec.decodeValue(R.self, from: data, field: "payload")
                let response: R.Response
                do {
                    response = try handler(request)
                } catch let error as WatchLinkError {
                    throw error
                } catch {
                    throw WatchLinkError(.handlerFailed, String(describing: error), details: ["typeKey": R.typeKey.rawValue])
                }
                return try WatchPayload.encode(response, answering: data)
            })
    }

    /// Registers an already type-erased handler.
    ///
    /// - Throws: `invalid_argument` for an unusable key; `duplicate_registration` when taken.
    public func registerErased(_ key: WatchTypeKey, handler: @escaping ErasedHandler) throws(WatchLinkError) {
        try insert(key, .async(handler))
    }

    private func insert(_ key: WatchTypeKey, _ entry: Entry) throws(WatchLinkError) {
        try key.validate()
        let inserted = handlers.withLock { handlers -> Bool in
            if handlers[key] != nil { return false }
            handlers[key] = entry
            return true
        }
        if !inserted {
            throw WatchLinkError(
                .duplicateRegistration, "a handler for \(key) is already registered", details: ["typeKey": key.rawValue])
        }
    }

    /// Removes the handler for `key`, if any.
    public func unregister(_ key: WatchTypeKey) {
        _ = handlers.withLock { $0.removeValue(forKey: key) }
    }

    /// The handler for `key`, if registered (an inline one wrapped as asynchronous).
    public func handler(for key: WatchTypeKey) -> ErasedHandler? {
        switch entry(for: key) {
        case .inline(let handler): { (data: Data) throws(WatchLinkError) -> Data in try handler(data) }
        case .async(let handler): handler
        case nil: nil
        }
    }

    /// The handler for `key` as registered, if any.
    package func entry(for key: WatchTypeKey) -> Entry? {
        handlers.withLock { $0[key] }
    }

    /// Runs the handler for `key` on `payload`.
    ///
    /// - Throws: `no_handler` when nothing is registered for `key`; otherwise whatever the handler throws.
    public func run(_ key: WatchTypeKey, payload: Data) async throws(WatchLinkError) -> Data {
        guard let handler = handler(for: key) else { throw Self.missing(key) }
        return try await handler(payload)
    }

    /// The error for a request whose type has no handler.
    static func missing(_ key: WatchTypeKey) -> WatchLinkError {
        WatchLinkError(.noHandler, "no handler registered for \(key)", details: ["typeKey": key.rawValue])
    }
}
