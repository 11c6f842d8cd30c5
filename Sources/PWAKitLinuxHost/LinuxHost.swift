#if WebKitGTK
    import CWebKitGTK
    import Foundation
    public import PWAKitCore
    public import PWAKitHost
    public import PWAKitModules

    /// A desktop window that runs one PWAKit app in WebKitGTK, wired to a ``BridgeDispatcher``.
    ///
    /// The bridge is reachable only from the top frame of an origin the configuration grants
    /// (see ``BridgeScripts``); navigation follows the configuration's origin policy
    /// (``HostNavigator``); `app://<appId>/` serves the app's local bundle
    /// (``LocalBundleServer``); website data lives in a directory of the app's own
    /// (``WebsiteDataLocation``). Everything runs on the main thread inside GTK's loop.
    @MainActor
    public final class LinuxHost {
        let launch: AppLaunch
        let options: HostOptions
        let navigator: HostNavigator
        let limits: BridgeLimits
        var dispatcher: BridgeDispatcher!
        var handshake: BridgeHandshake!
        let bundleServer: LocalBundleServer?

        var window: UnsafeMutablePointer<GtkWidget>!
        var webView: UnsafeMutablePointer<WebKitWebView>!
        var contentManager: UnsafeMutablePointer<WebKitUserContentManager>!
        var signInBar: UnsafeMutablePointer<GtkWidget>!

        /// The bridge page of the current document: its generation, queued messages and held pushes.
        var page = PageLoadState<(Posted, PendingReply)>()
        /// The origin the injected scripts are bound to (nil: none injected).
        var scriptedOrigin: String?
        var exitStatus: Int32 = 0
        var finished = false
        var loadFinishedOnce = false
        var snapshotStarted = false
        var lastVisibility = true
        /// When the view began to be built (what the `ready` line's `sinceStartMs` counts from).
        var builtAt: ContinuousClock.Instant?
        /// Whether the view lives in a window of someone else's (``makeEmbeddedView()``).
        var embedded = false
        /// Called instead of quitting the main loop when an embedded host's run ends.
        var onFinish: (@MainActor (Int32) -> Void)?
        /// When recording, the arrival time of every bridge (and floor echo) message.
        var arrivals: [ContinuousClock.Instant]?
        /// Called once, when the first page has finished loading (automation, benchmarks).
        public var onFirstLoad: (@MainActor (LinuxHost) -> Void)?
        /// Called as bridge pages open, report ready and the web process ends (a mini-app's ready rule).
        public var onPageEvent: (@MainActor (HostPageEvent) -> Void)?
        /// Incoming pushes and clicked notifications, for the page once it has loaded.
        let push: PushRelay?
        /// Whether the configuration enables `notifications`, whose `push` events the relay carries.
        var pushEnabled = false
        /// Attaching and detaching the relay, in the order the loads happened.
        var relayChain: Task<Void, Never>?
        /// The simulated device behind the providers, which ``HostOptions/simulation`` scripts.
        let device: SimulatedDevice?

        /// Prepares a host for `launch` with the built-in modules over `providers`, the real
        /// Linux providers put in place of simulated ones for the clipboard, printing,
        /// notifications and secure storage (``ModuleProviders/kinds`` says which are which);
        /// `device` is the simulated device behind the rest, which ``HostOptions/simulation``
        /// scripts. ``run()`` opens the window.
        ///
        /// `extraModules` are registered beside the built-in ones (a mini-app's `session`).
        public convenience init(
            launch: AppLaunch, options: HostOptions, providers: ModuleProviders, device: SimulatedDevice? = nil,
            extraModules: [any PWAModule] = []
        ) throws {
            let link = HostLink()
            let real = LinuxProviders.substitute(providers, launch: launch, options: options, link: link)
            try self.init(
                launch: launch, options: options, modules: BuiltInModules.all(real) + extraModules, push: real.push,
                device: device)
            link.host = self
        }

        /// Prepares a host for `launch` with exactly `modules` (plus the host's own); ``run()``
        /// opens the window.
        public convenience init(launch: AppLaunch, options: HostOptions, modules: [any PWAModule]) throws {
            try self.init(launch: launch, options: options, modules: modules, push: nil, device: nil)
        }

        init(
            launch: AppLaunch, options: HostOptions, modules: [any PWAModule], push: PushRelay?, device: SimulatedDevice?
        ) throws {
            self.push = push
            self.device = device
            self.launch = launch
            self.options = options
            self.navigator = HostNavigator(policy: OriginPolicy(configuration: launch.configuration))
            self.limits = BridgeLimits()
            if let release = launch.release, let appID = launch.appID {
                bundleServer = LocalBundleServer(appID: appID, release: release)
            } else if let root = launch.bundleRoot, let appID = launch.appID {
                bundleServer = LocalBundleServer(appID: appID, root: root)
            } else {
                bundleServer = nil
            }
            let onReady: @Sendable (BridgeCaller) -> Void = { caller in
                Task { @MainActor [weak self] in self?.pageReportedReady(caller) }
            }
            var report: (@Sendable (ReportModule.Entry) -> Void)?
            if options.report {
                report = { entry in Task { @MainActor [weak self] in self?.record(entry) } }
            }
            let registry = try HostModules.registry(
                modules, features: launch.configuration.features, onReady: onReady, report: report)
            if case .enabled = registry.entry(named: NotificationsModule.moduleName) { pushEnabled = true }
            handshake = BridgeHandshake(registry: registry)
            // NB: the dispatcher shares the main thread with GTK, so a call crosses no thread.
            dispatcher = BridgeDispatcher(
                registry: registry, configuration: launch.configuration, version: launch.version, build: launch.build,
                limits: limits, executor: MainActor.sharedUnownedExecutor)
        }

        /// Opens the window, loads the start URL and runs until the window closes (or, for a
        /// screenshot or report run, until it is done). Returns the process exit status.
        public func run() throws(HostError) -> Int32 {
            var argc: Int32 = 0
            guard gtk_init_check(&argc, nil) != 0 else {
                throw HostError(.engineUnavailable, "cannot open a display (is DISPLAY set? try xvfb-run)")
            }
            MainLoop.bridgeDispatch()
            try build()
            startLoading()
            if options.screenshot != nil || options.report {
                let seconds = UInt32(max(1, options.timeout.components.seconds))
                let callback: @convention(c) (gpointer?) -> gboolean = { data in
                    let host = Unmanaged<LinuxHost>.fromOpaque(data!).takeUnretainedValue()
                    MainActor.assumeIsolated { host.timedOut() }
                    return 0
                }
                g_timeout_add_seconds(seconds, callback, Unmanaged.passUnretained(self).toOpaque())
            }
            MainLoop.run()
            return exitStatus
        }

        /// Loads the start URL (after the simulation script, when there is one).
        func startLoading() {
            if let script = options.simulation {
                // The script is in place before the page can call anything.
                let device = self.device
                let push = self.push
                Task { @MainActor in
                    await device?.apply(script)
                    for event in script.pushes ?? [] { await push?.receive(event) }
                    webkit_web_view_load_uri(self.webView, self.launch.startURL)
                }
            } else {
                webkit_web_view_load_uri(webView, launch.startURL)
            }
        }

        /// Builds the host's view for a window of someone else's (``ShellWindow``), and starts
        /// loading; GTK is initialised already. Ending the run calls ``onFinish`` instead of
        /// quitting the main loop.
        func makeEmbeddedView() throws(HostError) -> UnsafeMutablePointer<GtkWidget> {
            embedded = true
            let view = try buildView()
            startLoading()
            return view
        }

        /// Ends the run with `status`.
        func finish(_ status: Int32) {
            guard !finished else { return }
            finished = true
            exitStatus = status
            if embedded {
                onFinish?(status)
                return
            }
            MainLoop.quit()
            // NB: a dialog open now (the print dialog) runs a loop of its own; cancel it so the run ends.
            pwakit_cancel_dialogs()
        }

        func timedOut() {
            guard !finished else { return }
            let what = options.report ? "the page's report" : "the page (\(options.waitFor.rawValue))"
            emitLine(["event": "timeout", "message": .string("gave up waiting for \(what)")])
            finish(3)
        }

        /// Writes one JSON line to the host's output.
        func emitLine(_ object: [String: JSONValue]) {
            options.output(JSONSerializer.serialize(.object(object)))
        }

        var selfPointer: gpointer { Unmanaged.passUnretained(self).toOpaque() }

        // MARK: Building the window

        func build() throws(HostError) {
            let box = try buildView()
            window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
            gtk_window_set_title(pwakit_window(window), launch.configuration.app.name)
            gtk_window_set_default_size(pwakit_window(window), Int32(options.width), Int32(options.height))
            connect(window, "destroy", Self.onDestroy)
            connect(window, "map-event", Self.onMapped)
            connect(window, "unmap-event", Self.onUnmapped)
            gtk_container_add(pwakit_container(window), box)
            gtk_widget_show_all(window)
        }

        /// The web view under its sign-in bar, every signal connected.
        func buildView() throws(HostError) -> UnsafeMutablePointer<GtkWidget> {
            builtAt = .now
            let location = try WebsiteDataLocation(
                bundleID: launch.configuration.app.bundleId, base: options.dataDirectory)
            try location.create()
            let manager = pwakit_website_data_manager_new(location.data.path, location.cache.path)
            let cookies = webkit_website_data_manager_get_cookie_manager(manager)
            webkit_cookie_manager_set_persistent_storage(
                cookies, location.data.appendingPathComponent("cookies.sqlite").path, WEBKIT_COOKIE_PERSISTENT_STORAGE_SQLITE)
            let context = webkit_web_context_new_with_website_data_manager(manager)!
            registerAppScheme(on: context)

            contentManager = webkit_user_content_manager_new()
            webkit_user_content_manager_register_script_message_handler_with_reply(
                contentManager, BridgeScripts.handlerName, BridgeScripts.worldName)
            connect(contentManager, "script-message-with-reply-received::\(BridgeScripts.handlerName)", Self.onMessage)
            if options.floorEcho {
                webkit_user_content_manager_register_script_message_handler_with_reply(
                    contentManager, Self.floorHandlerName, BridgeScripts.worldName)
                connect(contentManager, "script-message-with-reply-received::\(Self.floorHandlerName)", Self.onFloorEcho)
            }

            let view = pwakit_web_view_new(context, contentManager)!
            webView = pwakit_web_view(view)
            let settings = webkit_web_view_get_settings(webView)
            // NB: a page restored from the back-forward cache would be a page load the
            // dispatcher has already closed; every navigation makes a fresh document instead.
            webkit_settings_set_enable_page_cache(settings, 0)
            webkit_settings_set_javascript_can_open_windows_automatically(settings, options.allowPopups ? 1 : 0)
            connect(webView, "decide-policy", Self.onDecidePolicy)
            connect(webView, "create", Self.onCreate)
            connect(webView, "load-changed", Self.onLoadChanged)
            connect(webView, "script-dialog", Self.onScriptDialog)
            connect(webView, "web-process-terminated", Self.onWebProcessTerminated)
            connect(webView, "load-failed", Self.onLoadFailed)

            let box = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            signInBar = makeSignInBar()
            gtk_widget_show_all(signInBar)
            gtk_widget_hide(signInBar)
            // NB: shown only while signing in, whatever shows the window's widgets.
            gtk_widget_set_no_show_all(signInBar, 1)
            gtk_box_pack_start(pwakit_box(box), signInBar, 0, 0, 0)
            gtk_box_pack_start(pwakit_box(box), view, 1, 1, 0)
            return box
        }

        /// Connects a C callback to `signal` of `instance`, with this host as user data.
        func connect<T, F>(_ instance: UnsafeMutablePointer<T>, _ signal: String, _ callback: F) {
            pwakit_signal_connect(instance, signal, unsafeBitCast(callback, to: GCallback.self), selfPointer)
        }

        static func host(_ data: gpointer?) -> LinuxHost {
            Unmanaged<LinuxHost>.fromOpaque(data!).takeUnretainedValue()
        }

        // MARK: Window signals

        static let onDestroy: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
            let host = LinuxHost.host(data)
            MainActor.assumeIsolated { host.finish(host.exitStatus) }
        }

        static let onMapped: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?, gpointer?) -> gboolean = {
            _, _, data in
            let host = LinuxHost.host(data)
            MainActor.assumeIsolated { host.visibilityChanged(true) }
            return 0
        }

        static let onUnmapped: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?, gpointer?) -> gboolean = {
            _, _, data in
            let host = LinuxHost.host(data)
            MainActor.assumeIsolated { host.visibilityChanged(false) }
            return 0
        }

        static let onWebProcessTerminated:
            @convention(c) (UnsafeMutablePointer<WebKitWebView>?, WebKitWebProcessTerminationReason, gpointer?) -> Void = {
                _, reason, data in
                let host = LinuxHost.host(data)
                MainActor.assumeIsolated { host.webProcessTerminated(crashed: reason == WEBKIT_WEB_PROCESS_CRASHED) }
            }

        func webProcessTerminated(crashed: Bool) {
            emitLine(["event": "webProcessTerminated", "reason": .string(crashed ? "crashed" : "ended")])
            onPageEvent?(.webProcessTerminated)
        }

        func visibilityChanged(_ visible: Bool) {
            // NB: GTK may signal the same state twice (unmap, then withdraw); pages see changes only.
            guard visible != lastVisibility else { return }
            lastVisibility = visible
            emit(BridgeEvent(type: "visibilitychange", data: ["visible": .bool(visible)]))
        }

        /// Hides and shows the window again (`report.hideAndShow`, test mode), which the page sees
        /// as two `visibilitychange` events.
        func hideAndShow() {
            guard let window else { return }
            gtk_widget_hide(window)
            gtk_widget_show(window)
        }
    }
#endif
