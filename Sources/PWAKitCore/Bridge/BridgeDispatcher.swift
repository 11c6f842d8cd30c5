import Foundation

/// Routes page messages to modules and produces exactly one answer per readable id.
///
/// Raw bytes or text go in; ``handle(_:from:)`` decodes them (outside the actor), checks
/// the page's grant, runs the module's handler concurrently with other calls, and returns
/// the response for the host to deliver. A call ends exactly once: with its handler's
/// result, at its deadline (`timeout`), when the page cancels it (`cancelled`), or when its
/// page load ends — then the answer is dropped, never delivered to the next page.
public actor BridgeDispatcher {
    /// The modules calls are routed to.
    public let registry: ModuleRegistry
    /// The app whose pages this dispatcher serves.
    public let app: AppIdentity
    /// The app's configuration; its origin policy decides what each page is granted.
    public let configuration: PWAConfiguration
    /// The origin policy derived from ``configuration``.
    public nonisolated let policy: OriginPolicy
    /// The bounds enforced on messages.
    public let limits: BridgeLimits
    let telemetry: BridgeTelemetry
    let now: @Sendable () -> Duration
    let sleepUntil: @Sendable (Duration) async throws -> Void

    struct Page {
        var caller: BridgeCaller
        var deliver: @Sendable (BridgeOutput) -> Void
        var inFlight = 0
        /// Cancels that arrived before their call, oldest first.
        var earlyCancels: [String] = []

        mutating func rememberEarlyCancel(_ id: String) {
            if earlyCancels.count >= BridgeDispatcher.maxEarlyCancels { earlyCancels.removeFirst() }
            earlyCancels.append(id)
        }

        mutating func takeEarlyCancel(_ id: String) -> Bool {
            guard let index = earlyCancels.firstIndex(where: { $0.utf8.elementsEqual(id.utf8) }) else { return false }
            earlyCancels.remove(at: index)
            return true
        }

        /// Ids of calls answered recently, oldest first: a cancel for one of them came too
        /// late and is ignored, rather than remembered against a later call reusing the id.
        var answered: [String] = []

        mutating func rememberAnswered(_ id: String) {
            if answered.count >= BridgeDispatcher.maxEarlyCancels { answered.removeFirst() }
            answered.append(id)
        }

        func wasAnswered(_ id: String) -> Bool {
            answered.contains { $0.utf8.elementsEqual(id.utf8) }
        }
    }

    /// How many cancels of calls not yet seen one page load remembers.
    ///
    /// NB: a host may hand a page's messages to the dispatcher concurrently, so a cancel can
    /// overtake its call; the call is then answered `cancelled` when it arrives.
    static let maxEarlyCancels = 64

    struct CallKey: Hashable {
        var page: PageLoadID
        var id: String

        // NB: ids match by their exact UTF-8, as JavaScript compares them; `String` equality
        // would treat canonically equivalent ids ("\u{E9}" and "e\u{301}") as one call.
        static func == (lhs: CallKey, rhs: CallKey) -> Bool {
            lhs.page == rhs.page && lhs.id.utf8.elementsEqual(rhs.id.utf8)
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(page)
            var id = id
            id.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        }
    }

    struct InFlight {
        var token: UInt64
        var continuation: CheckedContinuation<RenderedOutput?, Never>
        var task: Task<Void, Never>?
        var deadline: Duration
        var module: String
        var action: String
        var started: Duration
        var requestBytes: Int
    }

    var pages: [PageLoadID: Page] = [:]
    var calls: [CallKey: InFlight] = [:]
    private var nextPage: UInt64 = 1
    private var nextToken: UInt64 = 1
    var sweeperTarget: Duration?
    var sweeperGeneration: UInt64 = 0
    var sweeper: Task<Void, Never>?
    /// Where the dispatcher's state lives: its own serial executor, or the one a host shares
    /// with it (``init(registry:configuration:version:build:limits:telemetry:clock:executor:)``).
    private nonisolated let home: UnownedSerialExecutor
    /// Keeps the default executor's owner alive.
    private let homeOwner: ExecutorHome?
    /// Whether handlers start at once on the dispatcher's executor (a host-shared executor)
    /// rather than on the global pool.
    private let handlersInline: Bool

    /// The executor the dispatcher's state is isolated to.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { home }

    /// Creates a dispatcher over `registry` for the app `configuration` describes, timing
    /// calls with `clock`. `version` and `build` are the host app's.
    ///
    /// By default the dispatcher keeps its state on its own serial executor and runs each
    /// handler on the global pool. A host whose messages arrive on one thread (a GUI main
    /// loop) passes that thread's executor as `executor` — e.g. `MainActor.sharedUnownedExecutor`
    /// — and calls ``handleInline(_:from:)`` from a task on it: then a call crosses no thread,
    /// and a handler that does not suspend answers before that task yields. Handlers then run
    /// on that executor until they suspend, as script message handlers do on Apple platforms;
    /// a module with heavy work moves it elsewhere itself.
    public init<C: Clock>(
        registry: ModuleRegistry, configuration: PWAConfiguration, version: String = "1.0.0", build: String = "1",
        limits: BridgeLimits = BridgeLimits(), telemetry: BridgeTelemetry = BridgeTelemetry(),
        clock: C = ContinuousClock(), executor: UnownedSerialExecutor? = nil
    ) where C.Duration == Duration {
        if let executor {
            home = executor
            homeOwner = nil
            handlersInline = true
        } else {
            let owner = ExecutorHome()
            home = owner.unownedExecutor
            homeOwner = owner
            handlersInline = false
        }
        self.registry = registry
        self.configuration = configuration
        self.policy = OriginPolicy(configuration: configuration)
        self.app = AppIdentity(
            name: configuration.app.name, bundleID: configuration.app.bundleId, version: version, build: build)
        self.limits = limits
        self.telemetry = telemetry
        let start = clock.now
        self.now = { start.duration(to: clock.now) }
        self.sleepUntil = { offset in try await clock.sleep(until: start.advanced(by: offset), tolerance: nil) }
    }

    // MARK: Pages

    /// Starts a page load from `origin` with `grant`; `deliver` receives its events (and, via
    /// ``receive(_:from:)``, its responses).
    public func openPage(
        origin: String, grant: BridgeGrant, deliver: @escaping @Sendable (BridgeOutput) -> Void
    ) -> PageLoadID {
        let id = PageLoadID(rawValue: nextPage)
        nextPage += 1
        pages[id] = Page(caller: BridgeCaller(origin: origin, pageLoad: id, grant: grant), deliver: deliver)
        return id
    }

    /// Ends a page load: its in-flight calls are cancelled and their answers dropped.
    public func closePage(_ page: PageLoadID) {
        guard pages.removeValue(forKey: page) != nil else { return }
        for key in calls.keys where key.page == page {
            finish(key, token: nil, .failure(BridgeError(.cancelled, "the page went away")), deliver: false)
        }
    }

    /// Starts a load of the page at `url`: its origin and grant come from the configuration's
    /// origin policy (an origin the policy does not allow is granted nothing, so every call
    /// from it answers `origin_not_allowed`).
    public func openPage(url: String, deliver: @escaping @Sendable (BridgeOutput) -> Void) -> PageLoadID {
        let origin = Origin(url: url)
        let grant = origin.map(policy.bridgeGrant(for:)) ?? .denied
        return openPage(origin: origin?.description ?? "null", grant: grant, deliver: deliver)
    }

    /// The number of calls in flight across all pages.
    public var inFlightCount: Int { calls.count }

    /// Sends `event` to `page`, if that page load is still open.
    public func emit(_ event: BridgeEvent, to page: PageLoadID) {
        pages[page]?.deliver(.event(event))
    }

    // MARK: Messages

    /// Handles one message from `page` and returns its answer: a response for a message
    /// with a readable id, a `bridge.error` event for one without, or `nil` when there is
    /// nothing to deliver (a cancel message, or a page load that has ended).
    public nonisolated func handle(_ message: String, from page: PageLoadID) async -> BridgeOutput? {
        let started = now()
        return await route(IncomingMessage.decode(message, limits: limits), from: page, started: started)?.output
    }

    /// Handles one message on the dispatcher's executor; see ``handle(_:from:)``.
    ///
    /// For hosts that share their executor with the dispatcher: called from a task already on
    /// it (`Task.immediate` on the main actor), the message is decoded, routed and — when its
    /// handler does not suspend — answered without leaving the thread.
    public func handleInline(_ message: String, from page: PageLoadID) async -> BridgeOutput? {
        let started = now()
        return await route(IncomingMessage.decode(message, limits: limits), from: page, started: started)?.output
    }

    /// Handles one message on the dispatcher's executor, as ``handleInline(_:from:)`` does, and
    /// returns its answer's wire JSON: rendered once, for the page and for telemetry's byte count.
    public func handleInlineJSON(_ message: String, from page: PageLoadID) async -> String? {
        let started = now()
        return await route(IncomingMessage.decode(message, limits: limits), from: page, started: started)?.json
    }

    /// Handles one message given as UTF-8 bytes; see ``handle(_:from:)``.
    public nonisolated func handle(bytes: some Sequence<UInt8>, from page: PageLoadID) async -> BridgeOutput? {
        let started = now()
        let incoming =
            bytes.withContiguousStorageIfAvailable { IncomingMessage.decode($0, limits: limits) }
            ?? Array(bytes).withUnsafeBufferPointer { IncomingMessage.decode($0, limits: limits) }
        return await route(incoming, from: page, started: started)?.output
    }

    /// Handles one message and delivers its answer through the page's `deliver` closure.
    public nonisolated func receive(_ message: String, from page: PageLoadID) {
        Task {
            if let output = await handle(message, from: page) {
                await deliver(output, to: page)
            }
        }
    }

    private func deliver(_ output: BridgeOutput, to page: PageLoadID) {
        pages[page]?.deliver(output)
    }

    func route(_ incoming: IncomingMessage, from pageID: PageLoadID, started: Duration) async -> RenderedOutput? {
        guard let page = pages[pageID] else { return nil }
        switch incoming {
        case .unaddressable(let error, let bytes):
            let event = BridgeEvent.bridgeError(error)
            let json = event.json
            record("-", "-", started, bytes, json.utf8.count, error.code.rawValue)
            return RenderedOutput(output: .event(event), json: json)
        case .rejected(let id, let error, let bytes):
            return answer(.failure(id: id, error: error), "-", "-", started, bytes)
        case .message(.cancel(let id), _):
            let key = CallKey(page: pageID, id: id)
            // NB: a cancel has no answer of its own; the call it names answers `cancelled`. A
            // cancel for a call already answered is late and ignored; for a call not yet seen
            // it is early (it overtook its call) and is remembered for it.
            if calls[key] != nil {
                finish(key, token: nil, .failure(BridgeError(.cancelled, "the page cancelled the call")), deliver: true)
            } else if pages[pageID]?.wasAnswered(id) == false {
                pages[pageID]?.rememberEarlyCancel(id)
            }
            return nil
        case .message(.call(let request), let bytes):
            return await call(request, page: page, started: started, bytes: bytes)
        }
    }

    private func call(_ request: BridgeRequest, page: Page, started: Duration, bytes: Int) async -> RenderedOutput? {
        // NB: an alias's call is the module's call from here on: grants, flags and telemetry see
        // the module's own names.
        let (module, action) = registry.resolve(module: request.module, action: request.action)
        let id = request.id
        // NB: telemetry names only what is registered; names a page makes up are `-`, so they
        // cannot grow the metrics backend one time series per name.
        let known = registry.entry(named: module)
        let recordedModule = known == nil ? "-" : module
        let declared = registry.declares(module: module, action: action)
        let recordedAction = declared ? action : "-"
        func reject(_ error: BridgeError) -> RenderedOutput {
            pages[page.caller.pageLoad]?.rememberAnswered(id)
            return answer(.failure(id: id, error: error), recordedModule, recordedAction, started, bytes)
        }
        if pages[page.caller.pageLoad]?.takeEarlyCancel(id) == true {
            return reject(BridgeError(.cancelled, "the page cancelled the call"))
        }
        if page.caller.grant == .denied {
            telemetry.refused(origin: page.caller.origin, module: module, action: action, code: .originNotAllowed)
            return reject(BridgeError(.originNotAllowed, "\(page.caller.origin) may not use the bridge"))
        }
        guard page.caller.grant.permits(module: module, action: action) else {
            telemetry.refused(origin: page.caller.origin, module: module, action: action, code: .permissionDenied)
            return reject(BridgeError(.permissionDenied, "\(page.caller.origin) is not granted \(module).\(action)"))
        }
        let handler: any PWAModule
        switch known {
        case nil:
            return reject(.field(.unknownModule, path: "module", "no module named \"\(module)\""))
        case .disabled(_, let flag)?:
            let reason = flag.map { " (features.\($0) is false)" } ?? ""
            return reject(BridgeError(.unavailable, "module \"\(module)\" is not available in this app\(reason)"))
        case .enabled(let enabled)?:
            handler = enabled
        }
        guard declared else {
            return reject(.field(.unknownAction, path: "action", "\(request.module) has no action \"\(request.action)\""))
        }
        let key = CallKey(page: page.caller.pageLoad, id: id)
        guard calls[key] == nil else {
            return reject(.field(.invalidMessage, path: "id", "a call with id \"\(id)\" is already in flight"))
        }
        guard page.inFlight < limits.maxInFlightPerPage else {
            return reject(BridgeError(.tooManyCalls, "more than \(limits.maxInFlightPerPage) calls in flight"))
        }
        let timeout = request.timeoutMs.map { Duration.milliseconds($0) } ?? limits.defaultTimeout
        let token = nextToken
        nextToken += 1
        let pageID = page.caller.pageLoad
        let context = ModuleContext(callID: id, caller: page.caller, app: app, configuration: configuration) {
            [weak self] event in
            guard let self else { return }
            Task { await self.emit(event, to: pageID) }
        }
        let payload = request.payload
        return await withCheckedContinuation { continuation in
            calls[key] = InFlight(
                token: token, continuation: continuation, task: nil, deadline: started + timeout,
                module: module, action: action, started: started, requestBytes: bytes)
            pages[pageID]?.inFlight += 1
            scheduleSweep(for: started + timeout)
            // NB: the entry exists before the handler starts: an inline handler may finish (and
            // look the call up) before `Task.immediate` returns. Its answer then resumes the
            // continuation before this task suspends, so the task goes on without being
            // scheduled again.
            let task: Task<Void, Never>
            if handlersInline {
                // NB: a strong capture keeps the task isolated to the dispatcher, so finishing
                // the call is not a hop (with `[weak self]` it would be nonisolated).
                task = Task.immediate { [self] in
                    let result = await Self.run(handler, module, action, payload, context)
                    finish(key, token: token, result, deliver: true)
                }
            } else {
                task = Task.detached { [weak self] in
                    let result = await Self.run(handler, module, action, payload, context)
                    await self?.finish(key, token: token, result, deliver: true)
                }
            }
            if calls[key]?.token == token { calls[key]?.task = task }
        }
    }

    private nonisolated(nonsending) static func run(
        _ handler: any PWAModule, _ module: String, _ action: String, _ payload: JSONValue?, _ context: ModuleContext
    ) async -> Result<JSONValue?, BridgeError> {
        do {
            return .success(try await handler.handle(action: action, payload: payload, context: context))
        } catch let error as BridgeError {
            return .failure(error)
        } catch is CancellationError {
            return .failure(BridgeError(.cancelled, "\(module).\(action) was cancelled"))
        } catch {
            return .failure(BridgeError(.moduleError, "\(module).\(action) failed: \(error)"))
        }
    }

    /// Ends the call `key` with `result`, unless it already ended (a late answer is dropped).
    /// `token` guards against a handler finishing for an earlier call that reused the id.
    func finish(_ key: CallKey, token: UInt64?, _ result: Result<JSONValue?, BridgeError>, deliver: Bool) {
        guard let entry = calls[key], token == nil || entry.token == token else { return }
        calls.removeValue(forKey: key)
        pages[key.page]?.inFlight -= 1
        pages[key.page]?.rememberAnswered(key.id)
        if token == nil { entry.task?.cancel() }
        let response = BridgeResponse(id: key.id, outcome: result)
        let output: RenderedOutput?
        if deliver && pages[key.page] != nil {
            output = answer(response, entry.module, entry.action, entry.started, entry.requestBytes)
        } else {
            record(entry.module, entry.action, entry.started, entry.requestBytes, 0, BridgeError.Code.cancelled.rawValue)
            output = nil
        }
        entry.continuation.resume(returning: output)
    }

    private func answer(
        _ response: BridgeResponse, _ module: String, _ action: String, _ started: Duration, _ bytes: Int
    ) -> RenderedOutput {
        let json = response.json
        record(module, action, started, bytes, json.utf8.count, response.error?.code.rawValue ?? "ok")
        return RenderedOutput(output: .response(response), json: json)
    }

    private func record(
        _ module: String, _ action: String, _ started: Duration, _ bytes: Int, _ responseBytes: Int, _ outcome: String
    ) {
        telemetry.record(
            BridgeCallRecord(
                module: module, action: action, duration: now() - started, requestBytes: bytes,
                responseBytes: responseBytes, outcome: outcome))
    }
}

/// An answer and its wire JSON, rendered once.
struct RenderedOutput: Sendable {
    var output: BridgeOutput
    var json: String
}

/// Owns the serial executor of a dispatcher that has no host-shared one.
private actor ExecutorHome {}
