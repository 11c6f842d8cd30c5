#if canImport(SwiftUI) && os(iOS)
    import PWAKitMiniApps
    import SwiftUI

    /// The launcher in SwiftUI: thin views over the same portable models the Linux launcher's page
    /// drives (``LauncherController`` and its ``RootModel``, ``SignInModel``, ``LauncherModel``,
    /// ``SettingsModel``). The mini-app itself is shown by `appView`, the app's WKWebView host
    /// serving the release at `app://<appId>/`.
    public struct LauncherRootView<AppView: View>: View {
        @Bindable var controller: LauncherController
        let appView: (MiniAppModel, LaunchableRelease) -> AppView
        @State private var shown: Shown?

        struct Shown: Identifiable {
            let app: MiniAppModel
            let release: LaunchableRelease
            var id: String { app.appId }
        }

        /// A launcher over `controller`; `appView` shows an opened mini-app.
        public init(controller: LauncherController, appView: @escaping (MiniAppModel, LaunchableRelease) -> AppView) {
            self.controller = controller
            self.appView = appView
        }

        public var body: some View {
            Group {
                switch controller.root.route {
                case .starting: ProgressView()
                case .login: SignInView(controller: controller)
                case .locked: LockView(controller: controller)
                case .launcher: GridView(controller: controller)
                }
            }
            .task {
                controller.present = { app, release, _ in shown = Shown(app: app, release: release) }
                await controller.start()
            }
            .fullScreenCover(item: $shown, onDismiss: { controller.closeApp() }) { shown in
                NavigationStack {
                    appView(shown.app, shown.release)
                        .navigationTitle(shown.app.appId)
                        .navigationBarTitleDisplayMode(.inline)
                        .toolbar {
                            ToolbarItem(placement: .topBarLeading) { Button("Apps") { self.shown = nil } }
                        }
                }
            }
        }
    }

    struct SignInView: View {
        let controller: LauncherController
        @State private var registering = false

        var body: some View {
            @Bindable var form = controller.form
            Form {
                if let notice = controller.root.notice { Text(notice).foregroundStyle(.orange) }
                TextField("Email", text: $form.email).textContentType(.username).keyboardType(.emailAddress)
                fieldError("email")
                SecureField("Password", text: $form.password).textContentType(.password)
                fieldError("password")
                if let error = form.error { Text(error).foregroundStyle(.red) }
                Button("Sign in") { Task { await controller.signIn(email: form.email, password: form.password) } }
                    .disabled(form.isSubmitting)
                Button("Create an account") { registering = true }
            }
            .sheet(isPresented: $registering) {
                Form {
                    TextField("Name", text: $form.displayName)
                    TextField("Email", text: $form.email).keyboardType(.emailAddress)
                    fieldError("email")
                    SecureField("Password", text: $form.password)
                    fieldError("password")
                    SecureField("Password again", text: $form.confirmation)
                    fieldError("confirmation")
                    Button("Create account") {
                        Task {
                            await controller.register(
                                email: form.email, password: form.password, confirmation: form.confirmation,
                                displayName: form.displayName)
                        }
                    }
                }
            }
        }

        @ViewBuilder func fieldError(_ field: String) -> some View {
            if let message = controller.form.fieldErrors[field] { Text(message).font(.footnote).foregroundStyle(.red) }
        }
    }

    struct LockView: View {
        let controller: LauncherController
        @State private var password = ""

        var body: some View {
            VStack(spacing: 16) {
                Text("Locked").font(.title)
                if controller.biometricUnlock {
                    Button("Unlock") { Task { await controller.unlock() } }.buttonStyle(.borderedProminent)
                }
                SecureField("Password", text: $password).textFieldStyle(.roundedBorder)
                Button("Unlock with password") { Task { await controller.unlock(password: password) } }
                if let error = controller.unlockError { Text(error).foregroundStyle(.red) }
            }
            .padding()
        }
    }

    struct GridView: View {
        let controller: LauncherController
        @State private var settings = false

        var body: some View {
            NavigationStack {
                ScrollView {
                    if controller.grid.isOffline {
                        Text("You are offline. Installed apps still open.").padding().background(.yellow.opacity(0.2))
                    }
                    LazyVGrid(columns: [GridItem(.adaptive(minimum: 150))], spacing: 16) {
                        ForEach(controller.grid.entries) { entry in tile(entry) }
                    }
                    .padding()
                }
                .refreshable { await controller.refresh() }
                .navigationTitle("Your apps")
                .toolbar { Button("Settings") { settings = true } }
                .sheet(isPresented: $settings) { SettingsView(controller: controller) }
            }
        }

        func tile(_ entry: CatalogEntry) -> some View {
            VStack(alignment: .leading, spacing: 6) {
                Button {
                    Task { try? await controller.open(entry.id) }
                } label: {
                    AsyncImage(url: URL(string: entry.app.icon)) { image in image.resizable() } placeholder: {
                        Text(entry.app.name.prefix(1)).font(.largeTitle.bold())
                    }
                    .frame(width: 64, height: 64).clipShape(RoundedRectangle(cornerRadius: 14))
                }
                Text(entry.app.name).font(.headline)
                if let progress = controller.grid.progress[entry.id], progress.bytesTotal > 0 {
                    ProgressView(value: Double(progress.bytesDone), total: Double(progress.bytesTotal))
                } else if let version = entry.pendingVersion {
                    Text("Update \(version) ready").font(.caption)
                } else if let version = entry.availableVersion {
                    Button("Update to \(version)") { Task { try? await controller.install(entry.id) } }.font(.caption)
                } else if let version = entry.installedVersion {
                    Text("Version \(version)").font(.caption).foregroundStyle(.secondary)
                }
                if let failure = controller.grid.failures[entry.id] { Text(failure).font(.caption).foregroundStyle(.red) }
            }
        }
    }

    struct SettingsView: View {
        let controller: LauncherController
        @State private var password = ""

        var body: some View {
            Form {
                Section("Account") {
                    Text(controller.settings.user?.displayName ?? "")
                    Text(controller.settings.user?.email ?? "").foregroundStyle(.secondary)
                }
                Section("Security") {
                    if controller.biometricUnlock {
                        SecureField("Password, to turn it off", text: $password)
                        Button("Turn off biometric unlock") {
                            Task { await controller.disableBiometricUnlock(password: password) }
                        }
                    } else {
                        Button("Turn on biometric unlock") { Task { await controller.enableBiometricUnlock() } }
                            .disabled(!controller.biometrics.available)
                    }
                    if let error = controller.unlockError { Text(error).foregroundStyle(.red) }
                }
                Section("Storage") {
                    ForEach(controller.grid.entries) { entry in
                        HStack {
                            Text(entry.app.name)
                            Spacer()
                            Text(ByteCountFormatter.string(fromByteCount: Int64(entry.bytes), countStyle: .file))
                            Button("Clear") { Task { try? await controller.clear(entry.id) } }
                        }
                    }
                }
                Section { Button("Sign out", role: .destructive) { Task { await controller.signOut() } } }
            }
            .task { await controller.settings.load() }
        }
    }
#endif
