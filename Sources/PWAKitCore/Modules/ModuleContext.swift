/// What a module knows about the call it is handling.
public struct ModuleContext: Sendable {
    /// The id the page gave this call.
    public let callID: String
    /// The page that made the call: its origin, page load and what it is granted.
    public let caller: BridgeCaller
    /// Who the app is.
    public let app: AppIdentity
    /// The app's configuration, as loaded and validated.
    public let configuration: PWAConfiguration
    private let emitter: @Sendable (BridgeEvent) -> Void

    /// Creates a context; hosts and tests use this, modules receive one.
    public init(
        callID: String, caller: BridgeCaller, app: AppIdentity, configuration: PWAConfiguration,
        emit: @escaping @Sendable (BridgeEvent) -> Void
    ) {
        self.callID = callID
        self.caller = caller
        self.app = app
        self.configuration = configuration
        self.emitter = emit
    }

    /// Sends an event to the calling page (`window.pwakit._handleEvent`).
    ///
    /// Events for a page that has since navigated away are dropped.
    public func emit(_ event: BridgeEvent) {
        emitter(event)
    }

    /// Sends an event of `type` with `data` to the calling page.
    public func emit(_ type: String, data: JSONValue? = nil) {
        emitter(BridgeEvent(type: type, data: data))
    }
}
