#if WebKitGTK
    import Foundation
    import PWAKitAPI
    import PWAKitBundles
    import PWAKitCore
    import PWAKitHost
    import PWAKitLinuxHost
    import PWAKitFlags
    import PWAKitMiniApps
    import PWAKitModules
    import PWAKitFiles
    import PWAKitRouting
    import PWAKitShare

    /// What `pwakit launcher` runs with.
    struct LauncherSetup {
        let server: URL
        let store: BundleStore
        let dataDirectory: URL
        let trust: PublisherTrust
        let readyDeadline: Duration
        let options: HostOptions
        let email: String?
        let password: String?
        let tour: HostTour?
        let relockAfter: Duration
        let merchant: PaymentsSection
        /// The share outbox the page's `posts` module sends from.
        let outbox: ShareOutbox
        /// The link the launcher was opened with (`pwakit launcher myapp://app/notes/n/42`), if any.
        var route: AppRoute?

        /// Opens the window and runs until it closes (or the tour ends); the exit status.
        @MainActor
        func run() -> Int32 {
            let page = dataDirectory.appendingPathComponent("launcher-page", isDirectory: true)
            do {
                try LauncherApp.writePage(to: page)
            } catch {
                Console.writeError("error: cannot write the launcher's page to \(page.path): \(error)")
                return 2
            }
            // One simulated device for the launcher (biometric unlock) and every mini-app it opens.
            let device = LinuxHost.simulatedDevice(options: options)
            let gate = BiometricGate(
                inner: LinuxHost.defaultSecureStore(dataDirectory: dataDirectory), biometrics: device, enrollment: device)
            let account = AccountSession(client: APIClient(baseURL: server), vault: gate)
            let controller = LauncherController(
                account: account, store: store, trust: trust,
                catalogDirectory: store.root.appendingPathComponent("catalog", isDirectory: true), readyDeadline: readyDeadline,
                gate: gate, relockAfter: relockAfter)
            let app = LauncherApp(setup: self, controller: controller, device: device)
            return app.run(page: page)
        }
    }

    /// The launcher's window: the launcher page at home, mini-apps shown over it.
    @MainActor
    final class LauncherApp: TourStage {
        let setup: LauncherSetup
        let controller: LauncherController
        let shell: ShellWindow
        let device: SimulatedDevice
        /// The options of every view: the simulation script is applied once, to the shared device.
        let options: HostOptions
        var home: LinuxHost?
        /// The app on screen whose page reported ready since it was shown.
        var readyApp: String?
        /// The page a link asked for, used when its mini-app is presented next.
        var linkedPage: (appId: String, page: PageLink)?

        init(setup: LauncherSetup, controller: LauncherController, device: SimulatedDevice) {
            self.setup = setup
            self.controller = controller
            self.device = device
            var options = setup.options
            options.simulation = nil
            self.options = options
            shell = ShellWindow(title: "PWAKit", width: setup.options.width, height: setup.options.height)
        }

        static let origin = "app://launcher"

        func waitForApp(_ appId: String, timeout: Duration) async -> String? {
            let deadline = ContinuousClock.now + timeout
            while ContinuousClock.now < deadline {
                if let running = controller.running, running.appId == appId, shell.app != nil, readyApp == appId,
                    running.isReady
                {
                    return nil
                }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return "\(appId) was not shown, or its page did not report ready (\(String(describing: controller.running?.state)))"
        }

        func pressBack() -> String? {
            guard shell.app != nil else { return "no app is shown" }
            back()
            return nil
        }

        static func writePage(to directory: URL) throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            for (name, text) in LauncherPage.files {
                try DurableFile.replace(directory.appendingPathComponent(name).path, with: Array(text.utf8))
            }
        }

        func output(_ object: [String: JSONValue]) {
            setup.options.output(JSONSerializer.serialize(.object(object)))
        }

        func run(page: URL) -> Int32 {
            let configuration = PWAConfiguration(
                app: AppSection(name: "PWAKit", bundleId: "pwakit.launcher", startUrl: "\(Self.origin)/index.html"),
                origins: OriginsSection(allowed: [], grants: ["launcher": ["launcher", "lifecycle", "posts"]]))
            let launch = AppLaunch(configuration: configuration, bundleRoot: page, startURL: configuration.app.startUrl)
            let home: LinuxHost
            do {
                home = try LinuxHost(
                    launch: launch, options: options,
                    modules: [
                        LauncherModule(controller: controller), PostsModule(account: controller.account, outbox: setup.outbox),
                    ])
            } catch {
                Console.writeError("error: \(error)")
                return 2
            }
            self.home = home
            controller.onChange = { [weak home] snapshot in home?.sendEvent(LauncherModule.event(snapshot)) }
            controller.present = { [weak self] app, release, entry in self?.present(app, release: release, entry: entry) }
            shell.onBack = { [weak self] in self?.back() }
            shell.onAppFinished = { [weak self] _ in self?.back() }
            shell.onVisibilityChanged = { [weak self] visible in
                guard let self else { return }
                if visible {
                    Task { await self.controller.willEnterForeground() }
                } else {
                    self.controller.didEnterBackground()
                }
            }
            return runWindow(home: home) { await self.start() }
        }

        func start() async {
            if let script = setup.options.simulation { await device.apply(script) }
            await controller.start()
            if case .login = controller.root.route, let email = setup.email, let password = setup.password {
                await controller.signIn(email: email, password: password)
            }
            output(["event": "launcher", "route": .string(LauncherController.routeName(controller.root.route))])
            if let route = setup.route { await follow(route) }
            if let tour = setup.tour {
                let runner = HostTourRunner(app: self, tour: tour)
                shell.stop(await runner.run())
            }
        }

        /// Opens what a link names: a mini-app at its page; the launcher itself for the others.
        func follow(_ route: AppRoute) async {
            switch route {
            case .miniApp(let appId, let path, let query):
                guard case .launcher = controller.root.route else {
                    output([
                        "event": "link", "appId": .string(appId), "opened": .bool(false),
                        "reason": .string("sign in first, then open the link again"),
                    ])
                    return
                }
                linkedPage = (appId, PageLink(path: path, query: query))
                do {
                    try await controller.open(appId)
                    output(["event": "link", "appId": .string(appId), "path": .string(path), "opened": .bool(true)])
                } catch {
                    linkedPage = nil
                    output([
                        "event": "link", "appId": .string(appId), "opened": .bool(false), "reason": .string(error.message),
                    ])
                }
            case .home, .signIn:
                output(["event": "link", "opened": .bool(true)])
            case .settings, .notification:
                output([
                    "event": "link", "opened": .bool(false),
                    "reason": .string("the Linux launcher has no settings or notification screen; showing the launcher"),
                ])
            }
        }

        /// The start URL of `appId`'s release `entryPath`, at the linked page when a link asked for one.
        func startURL(appId: String, entryPath: String, default start: String) -> String {
            guard let linked = linkedPage, linked.appId == appId else { return start }
            linkedPage = nil
            // NB: the link's path is relative to the start page's folder; an empty path is the start page itself.
            let folder = entryPath.split(separator: "/").dropLast().joined(separator: "/")
            let path =
                linked.page.path.isEmpty ? entryPath : (folder.isEmpty ? linked.page.path : folder + "/" + linked.page.path)
            return PageLink(path: path, query: linked.page.query).url(onOrigin: "app://\(appId)")
        }

        func back() {
            guard shell.app != nil else { return }
            shell.dismiss()
            controller.closeApp()
            output(["event": "back"])
        }

        func present(_ app: MiniAppModel, release: LaunchableRelease, entry: CatalogEntry?) {
            let appId = release.appId
            let name = entry?.app.name ?? appId
            let configuration = MiniAppConfiguration.make(
                appId: appId, name: name, entryPath: release.entryPath, permissions: entry?.app.permissions ?? [],
                merchant: setup.merchant)
            let store = controller.store
            var launch = AppLaunch(
                configuration: configuration, bundleRoot: nil,
                startURL: startURL(appId: appId, entryPath: release.entryPath, default: configuration.app.startUrl),
                release: ReleaseFiles(manifest: release.manifest) { URL(fileURLWithPath: store.blobPath($0)) })
            launch.version = release.manifest.version
            launch.build = String(release.bundleHash.prefix(12))
            let session = SessionModule(appId: appId, bundleHash: release.bundleHash, account: controller.account)
            let flags = FlagsModule(store: MiniAppFlags.store(for: appId, in: store, account: controller.account))
            do {
                let host = try LinuxHost(
                    launch: launch, options: options, providers: .simulated(device), device: device,
                    extraModules: [session, flags])
                host.onPageEvent = { [weak self, weak app] event in
                    guard let self, let app else { return }
                    if case .ready = event { self.readyApp = app.appId }
                    if case .ready = event, let tapped = self.controller.openRequestedAt {
                        let elapsed = ContinuousClock.now - tapped
                        self.output([
                            "event": "appReady", "appId": .string(app.appId),
                            "sinceTapMs": .number(
                                Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15),
                        ])
                    }
                    let action: ReadyWatch.Action =
                        switch event {
                        case .opened(let load, let origin): app.documentOpened(load, origin: origin)
                        case .ready(let load, let origin): app.reportedReady(load, origin: origin)
                        case .webProcessTerminated: app.webProcessTerminated()
                        }
                    self.perform(action, app: app)
                }
                readyApp = nil
                try shell.present(host, title: name, status: status(of: app))
                output([
                    "event": "miniapp", "appId": .string(appId), "version": .string(release.manifest.version),
                    "bundleHash": .string(release.bundleHash), "onProbation": .bool(release.onProbation),
                ])
            } catch {
                output(["event": "error", "message": .string("cannot show \(appId): \(error)")])
                controller.closeApp()
            }
        }

        func status(of app: MiniAppModel) -> String {
            switch app.state {
            case .loading(let version): "Version \(version) · starting…"
            case .ready(let version): "Version \(version)"
            case .rolledBack(let version, _): "Version \(version) · rolled back"
            case .installing: "Downloading…"
            case .failed(let reason): reason
            case .idle: ""
            }
        }

        func perform(_ action: ReadyWatch.Action, app: MiniAppModel) {
            switch action {
            case .none: break
            case .startDeadline(let deadline):
                Task { @MainActor [weak self, weak app] in
                    try? await Task.sleep(for: deadline)
                    // NB: an app closed before its deadline stays on probation; the next launch tries again.
                    guard let self, let app, self.shell.app != nil, self.controller.running === app else { return }
                    self.perform(app.deadlineElapsed(), app: app)
                }
            case .confirm:
                shell.setStatus(status(of: app))
                output(["event": "releaseConfirmed", "appId": .string(app.appId)])
            case .rollBack(let reason):
                output(["event": "rolledBack", "appId": .string(app.appId), "reason": .string(reason)])
                if shell.app != nil {
                    shell.dismiss()
                    controller.closeApp()
                }
            }
        }
    }
#endif
