import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitIdentity

/// `pwakit identity …`: this machine as an enrolled device of mobile identity.
struct IdentityCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "identity",
        abstract: "Use this machine as an enrolled device: PIN, sign-in, mobile-authentication requests, QR codes, magic links.",
        discussion: """
            The device's keys are kept sealed in --store. Commands that prove the person take --pin \
            (or PWAKIT_PIN, or ask on the terminal); a wrong PIN is counted by the server, and the \
            wrong one that reaches its limit deregisters the device and erases its identity here. \
            Exit status: 0 done; 1 refused (by the server or the PIN policy); 64 a bad flag.
            """,
        subcommands: [
            IdentityEnrolCommand.self, IdentityStatusCommand.self, IdentitySignInCommand.self, IdentityRequestsCommand.self,
            IdentityApproveCommand.self, IdentityDenyCommand.self, IdentityScanCommand.self, IdentityChangePINCommand.self,
            IdentityBiometricCommand.self, IdentityDeregisterCommand.self, IdentityMagicLinkCommand.self,
            IdentityAskCommand.self, IdentityShowcaseCommand.self,
        ])
}

struct IdentityEnrolCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enrol", abstract: "Sign in with the password (PWAKIT_PASSWORD) and enrol this device with a new PIN.")

    @OptionGroup var options: IdentityOptions
    @Option(help: "The account's email address.") var email: String
    @Option(help: "The device's name.") var name = ProcessInfo.processInfo.hostName
    @Option(help: "The new PIN (else PWAKIT_PIN, or asked twice).") var pin: String?

    func run() async throws {
        try await CommandFailure.run {
            guard let password = ProcessInfo.processInfo.environment["PWAKIT_PASSWORD"], !password.isEmpty else {
                throw CommandFailure("no password: set PWAKIT_PASSWORD")
            }
            let client = try options.client()
            let chosen = try IdentityOptions.pin(pin, prompt: "New PIN: ")
            if pin == nil, ProcessInfo.processInfo.environment["PWAKIT_PIN"] == nil {
                guard try IdentityOptions.pin(nil, prompt: "The new PIN again: ") == chosen else {
                    throw CommandFailure("the PINs differ", code: "identity.pin_mismatch")
                }
            }
            try client.policy.check(chosen)
            let tokens = try await client.api.login(LoginRequest(email: email, password: password))
            let device = try await client.enrol(name: name, pin: chosen, user: tokens.user, accessToken: tokens.accessToken)
            Console.write("enrolled \(device.name) (\(device.id)) for \(tokens.user.email)")
        }
    }
}

struct IdentityStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Show this device as the server sees it.")
    @OptionGroup var options: IdentityOptions

    func run() async throws {
        try await CommandFailure.run {
            let client = try options.client()
            guard let identity = try await client.identity() else {
                Console.write("not enrolled")
                return
            }
            let device = try await client.device()
            Console.write("device: \(device.name) (\(device.id))")
            Console.write("account: \(identity.email)")
            Console.write("authenticators: \(device.authenticators.map(\.rawValue).joined(separator: ", "))")
            Console.write("PIN attempts left: \(device.pinAttemptsLeft)")
        }
    }
}

struct IdentitySignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign-in", abstract: "Sign in with the device (PIN or biometrics); prints who, or the access token.")
    @OptionGroup var options: IdentityOptions
    @Option(help: "The PIN.") var pin: String?
    @Flag(help: "Use the biometric authenticator instead of the PIN.") var biometric = false
    @Flag(help: "Print the access token only.") var printToken = false

    func run() async throws {
        try await CommandFailure.run {
            let client = try options.client()
            let check: IdentityClient.PersonCheck =
                biometric ? .biometric(reason: "Sign in") : .pin(try IdentityOptions.pin(pin))
            let session = try await client.signIn(check)
            Console.write(printToken ? session.accessToken : "signed in as \(session.user.email)")
        }
    }
}

struct IdentityRequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "requests", abstract: "List the mobile-authentication requests waiting for this device.")
    @OptionGroup var options: IdentityOptions

    func run() async throws {
        try await CommandFailure.run {
            let client = try options.client()
            let pending = try await client.pendingTransactions()
            if pending.isEmpty { Console.write("no requests") }
            for entry in pending {
                let details = try await client.transaction(id: entry.id)
                Console.write("\(details.id): \(details.message)")
                if let data = details.data { Console.write("  data: \(data)") }
                Console.write("  from \(details.requesterAddress), \(details.requesterAgent); app \(details.appId)")
                Console.write("  expires \(ISO8601DateFormatter().string(from: details.expiresAt))")
            }
        }
    }
}

struct IdentityApproveCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "approve", abstract: "Approve a request with the number the requesting screen shows (one try).")
    @OptionGroup var options: IdentityOptions
    @Argument(help: "The request's id (see `requests`).") var id: String
    @Option(help: "The number shown on the requesting screen.") var number: Int
    @Option(help: "The PIN.") var pin: String?
    @Flag(help: "Use the biometric authenticator instead of the PIN.") var biometric = false

    func run() async throws {
        try await CommandFailure.run {
            let client = try options.client()
            let details = try await client.transaction(id: id)
            let check: IdentityClient.PersonCheck =
                biometric ? .biometric(reason: "Confirm: \(details.message)") : .pin(try IdentityOptions.pin(pin))
            let status = try await client.approve(details, typedNumber: number, check: check)
            Console.write(status.status)
        }
    }
}

struct IdentityDenyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "deny", abstract: "Deny a request.")
    @OptionGroup var options: IdentityOptions
    @Argument(help: "The request's id.") var id: String
    @Flag(help: "Report it as not yours: requests to the account are muted for a while.") var notMe = false

    func run() async throws {
        try await CommandFailure.run {
            Console.write(try await options.client().deny(id: id, notMe: notMe).status)
        }
    }
}

struct IdentityScanCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scan",
        abstract: "Read a sign-in QR code (its text, or --image decoded with zbarimg) and approve or deny it.")
    @OptionGroup var options: IdentityOptions
    @Argument(help: "The code's text (pwakit://identity/qr?…).") var payload: String?
    @Option(help: "An image of the code (PNG, JPEG, PBM …), decoded with zbarimg (Debian's zbar-tools).") var image: String?
    @Flag(help: "Approve (needs the PIN or --biometric).") var approve = false
    @Flag(help: "Deny.") var deny = false
    @Option(help: "The PIN.") var pin: String?
    @Flag(help: "Use the biometric authenticator instead of the PIN.") var biometric = false

    func validate() throws {
        guard (payload == nil) != (image == nil) else { throw ValidationError("give the code's text or --image, not both") }
        guard !(approve && deny) else { throw ValidationError("give --approve or --deny, not both") }
    }

    func run() async throws {
        try await CommandFailure.run {
            let text = try payload ?? Self.decode(image: image!)
            let client = try options.client()
            let scanned = try await client.scan(text)
            Console.write("\(scanned.context.origin) asks to sign in")
            Console.write("  from \(scanned.context.requesterAddress), \(scanned.context.requesterAgent)")
            if deny {
                Console.write(try await client.deny(scanned).status)
            } else if approve {
                let check: IdentityClient.PersonCheck =
                    biometric
                    ? .biometric(reason: "Sign in to \(scanned.context.origin)") : .pin(try IdentityOptions.pin(pin))
                Console.write(try await client.approve(scanned, check: check).status)
            } else {
                Console.write("(give --approve or --deny to answer)")
            }
        }
    }

    /// Where zbarimg is, if it is installed.
    static var zbarPath: String? {
        ["/usr/bin/zbarimg", "/usr/local/bin/zbarimg"].first(where: FileManager.default.isExecutableFile)
    }

    static func decode(image: String, zbar: String? = zbarPath) throws -> String {
        guard let zbar else {
            throw CommandFailure("no zbarimg to read the image: apt-get install zbar-tools, or give the code's text")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zbar)
        process.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", image]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0, let text = String(data: data, encoding: .utf8)?.split(separator: "\n").first
        else {
            throw CommandFailure("no QR code could be read from \(image)", code: "identity.invalid_code")
        }
        return String(text)
    }
}

struct IdentityChangePINCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "change-pin", abstract: "Change the PIN (the current one is needed).")
    @OptionGroup var options: IdentityOptions
    @Option(help: "The current PIN.") var pin: String?
    @Option(help: "The new PIN.") var newPin: String?

    func run() async throws {
        try await CommandFailure.run {
            let current = try IdentityOptions.pin(pin, prompt: "Current PIN: ")
            guard let new = try newPin ?? (IdentityOptions.pin(nil, prompt: "New PIN: ") as String?) else { return }
            try await options.client().changePIN(current: current, new: new)
            Console.write("PIN changed")
        }
    }
}

struct IdentityBiometricCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "biometric", abstract: "Add (with the PIN) or remove the biometric authenticator.")
    @OptionGroup var options: IdentityOptions
    @Argument(help: "add or remove.") var action: String
    @Option(help: "The PIN (to add).") var pin: String?

    func validate() throws {
        guard ["add", "remove"].contains(action) else { throw ValidationError("the action is add or remove") }
    }

    func run() async throws {
        try await CommandFailure.run {
            let client = try options.client()
            if action == "add" {
                try await client.addBiometric(pin: try IdentityOptions.pin(pin))
                Console.write("biometric authenticator added")
            } else {
                try await client.removeBiometric()
                Console.write("biometric authenticator removed")
            }
        }
    }
}

struct IdentityDeregisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "deregister", abstract: "Deregister this device on the server and erase its identity here.")
    @OptionGroup var options: IdentityOptions

    func run() async throws {
        try await CommandFailure.run {
            try await options.client().deregister()
            Console.write("deregistered")
        }
    }
}

struct IdentityMagicLinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magic-link",
        abstract: "Ask for a sign-in link by email (--email), then sign in with it (--complete LINK) on this machine.")
    @OptionGroup var options: IdentityOptions
    @Option(help: "Ask for a link to this address.") var email: String?
    @Option(help: "The link from the mail.") var complete: String?

    func validate() throws {
        guard (email == nil) != (complete == nil) else { throw ValidationError("give --email or --complete") }
    }

    func run() async throws {
        try await CommandFailure.run {
            let client = MagicLinkClient(api: options.api, store: try options.secureStore())
            if let email {
                try await client.request(email: email)
                Console.write("if \(email) has an account, a sign-in link is on its way; then run --complete '<link>' here")
            } else if let complete {
                Console.write("signed in as \(try await client.complete(link: complete).user.email)")
            }
        }
    }
}

struct IdentityAskCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ask",
        abstract: "As a website's backend: ask a user to confirm a sign-in on their device, show the number, wait for the answer."
    )
    @OptionGroup var options: IdentityOptions
    @Option(help: "The account's email address.") var email: String
    @Option(help: "What the person is asked to confirm.") var message = "Sign in"
    @Option(help: "The app backend's credential as ID:SECRET (else PWAKIT_APP_CREDENTIAL).") var credential: String?
    @Option(help: "Seconds to wait for the answer (0: do not wait).") var wait = 60

    func run() async throws {
        try await CommandFailure.run {
            guard let pair = credential ?? ProcessInfo.processInfo.environment["PWAKIT_APP_CREDENTIAL"],
                let colon = pair.firstIndex(of: ":")
            else {
                throw CommandFailure("no credential: give --credential ID:SECRET or set PWAKIT_APP_CREDENTIAL")
            }
            let basic = APIClient.Credential.basic(id: String(pair[..<colon]), secret: String(pair[pair.index(after: colon)...]))
            let api = options.api
            let created: CreatedTransactionResponse = try await api.call(
                "POST", "/v1/identity/transactions",
                body: try APIClient.encode(CreateTransactionRequest(email: email, message: message)), credential: basic,
                idempotent: false)
            // NB: unbuffered: whoever reads this waits for the number.
            Console.write("request \(created.id): type \(created.number) on the device")
            let deadline = Date().addingTimeInterval(TimeInterval(wait))
            while Date() < deadline {
                let status: TransactionStatusResponse = try await api.call(
                    "GET", "/v1/identity/transactions/\(created.id)", credential: basic)
                if status.status != "pending" {
                    Console.write(status.status + (status.reason.map { " (\($0))" } ?? ""))
                    return
                }
                try await Task.sleep(for: .seconds(1))
            }
            if wait > 0 { Console.write("no answer yet") }
        }
    }
}
