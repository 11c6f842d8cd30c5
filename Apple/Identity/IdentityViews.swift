#if canImport(SwiftUI) && os(iOS)
    import PWAKitAPI
    import PWAKitIdentity
    import SwiftUI
    import VisionKit

    /// The mobile-identity showcase in SwiftUI: thin views over ``IdentityApp`` (the state) and
    /// ``IdentityInteractors`` (every action). Nothing here decides anything; the portable
    /// interactors, tested on Linux, do.
    public struct IdentityShowcaseView: View {
        @Bindable var app: IdentityApp
        let interactors: IdentityInteractors
        @State private var email = ""
        @State private var password = ""
        @State private var typedNumber = ""

        /// A showcase over `app`, acting through `interactors`.
        public init(app: IdentityApp, interactors: IdentityInteractors) {
            self.app = app
            self.interactors = interactors
        }

        public var body: some View {
            NavigationStack {
                Form {
                    if let info = app.system.lastInfoDescription { Section { Text(info) } }
                    switch app.system.userState {
                    case .notRegistered:
                        Section("Enrol this device") {
                            TextField("Email", text: $email).textContentType(.username).keyboardType(.emailAddress)
                            SecureField("Password", text: $password).textContentType(.password)
                            Button("Sign in and choose a PIN") {
                                Task {
                                    await interactors.registration.register(
                                        email: email, password: password, deviceName: UIDevice.current.name)
                                    password = ""
                                }
                            }
                        }
                    case .authenticated(let userId):
                        Section("Signed in") {
                            Text(userId).font(.footnote.monospaced())
                            Button("Sign out") { Task { await interactors.authenticator.logout() } }
                        }
                        enrolledSections
                    default:
                        Section("Sign in") {
                            Button("With the PIN") { Task { await interactors.authenticator.authenticateUser(with: .pin) } }
                            Button("With biometrics") {
                                Task { await interactors.authenticator.authenticateUser(with: .biometric) }
                            }
                        }
                        enrolledSections
                    }
                }
                .navigationTitle("Mobile identity")
                .disabled(app.system.isProcessing)
                .task { await interactors.sdk.start() }
                .refreshable { await interactors.mobileAuth.refresh() }
                .sheet(isPresented: pinPadShown) { PinPadView(app: app, pinPad: interactors.pinPad) }
                .sheet(isPresented: scannerShown) { scannerSheet }
            }
        }

        @ViewBuilder private var enrolledSections: some View {
            Section("Requests") {
                ForEach(app.pendingTransactions, id: \.id) { request in
                    VStack(alignment: .leading) {
                        Text(request.message).font(.headline)
                        Text("\(request.requesterAddress) · \(request.requesterAgent)").font(.caption)
                        TextField("Number on the other screen", text: $typedNumber).keyboardType(.numberPad)
                        HStack {
                            Button("Approve") {
                                guard let number = Int(typedNumber) else { return }
                                typedNumber = ""
                                Task { await interactors.mobileAuth.approve(request, typedNumber: number, with: .pin) }
                            }
                            Button("Deny") { Task { await interactors.mobileAuth.deny(request, notMe: false) } }
                            Button("This wasn't me", role: .destructive) {
                                Task { await interactors.mobileAuth.deny(request, notMe: true) }
                            }
                        }
                    }
                }
                Button("Check for requests") { Task { await interactors.mobileAuth.refresh() } }
            }
            Section("Sign in elsewhere") {
                Button("Scan a sign-in code") { interactors.qrScanner.startScanning() }
            }
            Section("Authenticators") {
                if app.deviceData.authenticators.contains(.biometric) {
                    Button("Turn biometric sign-in off") {
                        Task { await interactors.authenticatorRegistration.deregisterBiometric() }
                    }
                } else {
                    Button("Turn biometric sign-in on") { interactors.authenticatorRegistration.registerBiometric() }
                }
                Button("Change the PIN") { interactors.authenticatorRegistration.changePin() }
                Button("Erase this device's sign-in", role: .destructive) { Task { await interactors.sdk.reset() } }
            }
        }

        @ViewBuilder private var scannerSheet: some View {
            if let scanned = app.scannedSignIn {
                Form {
                    Section("Sign in to \(scanned.context.origin)?") {
                        Text("From \(scanned.context.requesterAddress)")
                        Text(scanned.context.requesterAgent).font(.caption)
                    }
                    Button("Approve with the PIN") { Task { await interactors.qrScanner.approve(with: .pin) } }
                    Button("Approve with biometrics") { Task { await interactors.qrScanner.approve(with: .biometric) } }
                    Button("Deny", role: .destructive) { Task { await interactors.qrScanner.deny() } }
                }
            } else {
                CodeScanner { text in Task { await interactors.qrScanner.scanned(text) } }
                    .ignoresSafeArea()
            }
        }

        private var pinPadShown: Binding<Bool> {
            Binding(get: { app.system.pinPadState != .hidden }, set: { if !$0 { interactors.pinPad.cancel() } })
        }

        private var scannerShown: Binding<Bool> {
            Binding(get: { app.system.scannerState != .hidden }, set: { if !$0 { interactors.qrScanner.cancel() } })
        }
    }

    /// The PIN pad: a secure number field; what the PIN does is the pad interactor's intent.
    struct PinPadView: View {
        let app: IdentityApp
        let pinPad: PinPadInteractor
        @State private var pin = ""

        var body: some View {
            Form {
                Section(title) {
                    SecureField("PIN", text: $pin).keyboardType(.numberPad).textContentType(.oneTimeCode)
                    if let info = app.system.lastInfoDescription { Text(info).font(.footnote) }
                }
                Button("OK") {
                    let typed = pin
                    pin = ""
                    Task { await pinPad.submit(typed) }
                }
                Button("Cancel", role: .cancel) { pinPad.cancel() }
            }
        }

        var title: String {
            switch app.system.pinPadState {
            case .createPin: "Choose a PIN"
            case .changePin: "Change the PIN"
            default: "Enter your PIN"
            }
        }
    }

    /// The camera provider: VisionKit's data scanner reading QR codes, handing over the first text.
    struct CodeScanner: UIViewControllerRepresentable {
        let found: (String) -> Void

        func makeUIViewController(context: Context) -> DataScannerViewController {
            let scanner = DataScannerViewController(
                recognizedDataTypes: [.barcode(symbologies: [.qr])], qualityLevel: .balanced, isHighlightingEnabled: true)
            scanner.delegate = context.coordinator
            try? scanner.startScanning()
            return scanner
        }

        func updateUIViewController(_ controller: DataScannerViewController, context: Context) {}

        func makeCoordinator() -> Coordinator { Coordinator(found: found) }

        final class Coordinator: NSObject, DataScannerViewControllerDelegate {
            let found: (String) -> Void
            private var handed = false

            init(found: @escaping (String) -> Void) { self.found = found }

            func dataScanner(_ scanner: DataScannerViewController, didAdd items: [RecognizedItem], allItems: [RecognizedItem]) {
                guard !handed else { return }
                for case .barcode(let code) in items {
                    guard let text = code.payloadStringValue else { continue }
                    handed = true
                    scanner.stopScanning()
                    found(text)
                    return
                }
            }
        }
    }
#endif
