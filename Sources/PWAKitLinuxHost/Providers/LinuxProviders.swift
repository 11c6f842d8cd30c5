#if WebKitGTK
    public import Foundation
    import PWAKitCore
    import PWAKitHost
    public import PWAKitModules

    /// A weak reference from the providers to the host they serve (the host is created after
    /// its modules).
    @MainActor
    final class HostLink {
        weak var host: LinuxHost?
    }

    /// The real providers of the WebKitGTK host, substituted for simulated ones.
    @MainActor
    enum LinuxProviders {
        /// The modules whose providers this host makes real.
        static let real = ["clipboard", "print", "notifications", "secureStorage"]

        /// `providers` with the real ones in place and ``ModuleProviders/kinds`` saying so.
        static func substitute(
            _ providers: ModuleProviders, launch: AppLaunch, options: HostOptions, link: HostLink,
            environment: [String: String] = ProcessInfo.processInfo.environment
        ) -> ModuleProviders {
            var providers = providers
            let log = HostLog(output: options.output)
            let bus = SessionBus.connect(environment: environment)
            let relay = providers.push
            providers.clipboard = GTKClipboard(log: log.provider("clipboard"))
            providers.printer = GTKPrinter(link: link, log: log.provider("print"))
            let notifications = DesktopNotifications(
                appName: launch.configuration.app.name, bus: bus,
                tapped: { push in Task { await relay.receive(push) } }, log: log.provider("notifications"))
            providers.notifications = notifications
            // NB: scheduled notifications are kept in the app's data directory, so they survive a
            // restart; without a writable location they live as long as the process.
            let store =
                (try? WebsiteDataLocation(
                    bundleID: launch.configuration.app.bundleId, base: options.dataDirectory, environment: environment
                ).data).map { FileNotificationStore(url: $0.appendingPathComponent("notifications.json")) }
            let notificationLog = log.provider("notifications")
            providers.notificationScheduler = NotificationScheduler(store: store, onStoreError: notificationLog) {
                try await notifications.present($0)
            }
            providers.secureStore = secureStore(bus: bus, options: options, environment: environment)
            providers.app = LinuxAppServices(review: providers.app, log: log.provider("app"))
            for module in real { providers.kinds[module] = .real }
            return providers
        }

        /// Where a Linux app keeps secrets: the Secret Service when one is running, else a file
        /// encrypted with a key of its own under `dataDirectory` (or `~/.config/pwakit`).
        static func defaultSecureStore(dataDirectory: URL?) -> any SecureStore {
            var options = HostOptions()
            options.dataDirectory = dataDirectory
            let environment = ProcessInfo.processInfo.environment
            return secureStore(bus: SessionBus.connect(environment: environment), options: options, environment: environment)
        }

        /// The Secret Service when one is running (or can be started), else the encrypted file.
        static func secureStore(bus: SessionBus?, options: HostOptions, environment: [String: String]) -> any SecureStore {
            if let bus, bus.isAvailable("org.freedesktop.secrets") { return SecretServiceStore() }
            let base = options.dataDirectory
            return EncryptedFileStore(keyFile: keyFile(options: options, environment: environment)) { app in
                try WebsiteDataLocation(bundleID: app, base: base, environment: environment).data
            }
        }

        /// `<data-dir>/secure-storage.key` with `--data-dir`, else
        /// `$XDG_CONFIG_HOME/pwakit/secure-storage.key` (`~/.config/…`).
        static func keyFile(options: HostOptions, environment: [String: String]) -> URL {
            if let base = options.dataDirectory { return base.appendingPathComponent("secure-storage.key") }
            let config =
                environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
                ?? URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
            return config.appendingPathComponent("pwakit/secure-storage.key")
        }
    }

    /// `app` on a Linux desktop: there is no per-app settings page to open (the answer is
    /// `app.settings_unavailable`, which is the truth, not a simulation), and no store to ask
    /// for a review, so `requestReview` goes to the simulated device.
    struct LinuxAppServices: AppServicesProvider {
        let review: any AppServicesProvider
        let log: @Sendable (String) -> Void

        func requestReview() async throws -> Bool {
            try await review.requestReview()
        }

        func openSettings() async throws -> Bool {
            log("openSettings: a Linux desktop has no settings page for one app")
            throw BridgeError(
                .module("app", "settings_unavailable"), "a Linux desktop has no settings page for one app")
        }
    }

    /// Writes the host's log lines (JSON, one per line) for providers and the simulated device.
    struct HostLog: Sendable {
        let output: @Sendable (String) -> Void

        /// A line `{"event":"provider","module":…,"message":…}` per call.
        func provider(_ module: String) -> @Sendable (String) -> Void {
            let output = self.output
            return { message in
                output(
                    JSONSerializer.serialize(
                        .object([
                            "event": "provider", "module": .string(module), "kind": "real", "message": .string(message),
                        ])))
            }
        }

        /// A line `{"event":"simulated","action":…}` per simulated action.
        var simulated: @Sendable (String) -> Void {
            let output = self.output
            return { line in
                let action = line.hasPrefix("simulated ") ? String(line.dropFirst("simulated ".count)) : line
                output(
                    JSONSerializer.serialize(.object(["event": "simulated", "kind": "simulated", "action": .string(action)])))
            }
        }
    }

    extension LinuxHost {
        /// A simulated device whose every action is reported in the host's output as a line
        /// `{"event":"simulated","action":"haptics.impact medium",…}`.
        public static func simulatedDevice(options: HostOptions) -> SimulatedDevice {
            SimulatedDevice(logger: HostLog(output: options.output).simulated)
        }

        /// Where a Linux app keeps secrets: the Secret Service when one is running, else a file
        /// encrypted with a key of its own under `dataDirectory` (or `~/.config/pwakit`).
        public static func defaultSecureStore(dataDirectory: URL?) -> any SecureStore {
            LinuxProviders.defaultSecureStore(dataDirectory: dataDirectory)
        }
    }
#endif
