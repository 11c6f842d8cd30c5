import Foundation

/// One unit on a session channel: a request, a response, a cumulative acknowledgement, or an
/// application-context snapshot.
package enum WireFrame: Hashable, Sendable {
    /// A request envelope.
    case request(WireRequest)
    /// A response envelope.
    case response(WireResponse)
    /// Several successful fire-and-forget answers at once (see ``WireAcknowledgements``).
    case acknowledgements(WireAcknowledgements)
    /// The sender's application context: shared-state entries and context-routed requests.
    case context(WireContext)

    /// The wire protocol version this build writes and understands.
    package static let protocolVersion = 1
}

/// The application-context payload: latest wins, so it always carries the whole picture.
package struct WireContext: Hashable, Sendable, Codable {
    /// Shared-state entries by state key.
    package var states: [String: StateEntry]
    /// Requests routed through the context, pending at the sender.
    package var requests: [WireRequest]
    /// The sender's ordered floor (see ``WireRequest/floor``).
    package var floor: UInt64?

    /// Creates a context payload.
    package init(states: [String: StateEntry] = [:], requests: [WireRequest] = [], floor: UInt64? = nil) {
        self.states = states
        self.requests = requests
        self.floor = floor
    }
}
