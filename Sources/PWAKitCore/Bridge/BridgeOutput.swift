/// Something the native side sends to a page: a response or an event.
public enum BridgeOutput: Sendable, Hashable {
    /// The answer to a call.
    case response(BridgeResponse)
    /// An unsolicited event.
    case event(BridgeEvent)

    /// The wire JSON text.
    public var json: String {
        switch self {
        case .response(let response): response.json
        case .event(let event): event.json
        }
    }

    /// The script a host evaluates in the page to deliver this output, as the seed does:
    /// `window.pwakit._handleResponse(…)` or `window.pwakit._handleEvent(…)`.
    ///
    /// The call is guarded so a page without the SDK does not throw.
    public var javaScript: String {
        switch self {
        case .response(let response):
            "window.pwakit&&window.pwakit._handleResponse&&window.pwakit._handleResponse(\(response.json));"
        case .event(let event):
            "window.pwakit&&window.pwakit._handleEvent&&window.pwakit._handleEvent(\(event.json));"
        }
    }
}
