import Foundation
public import PWAKitCore
import PWAKitModules

/// `launcher`: the privileged module behind the launcher's own page (`app://launcher/`). It
/// answers that origin only, whatever the grants say: a mini-app can neither sign the person in
/// or out nor open another app.
///
/// Every action answers the launcher's ``LauncherSnapshot``; the ``stateEvent`` event carries a
/// new snapshot whenever anything the page shows changes (progress included).
public struct LauncherModule: ActionModule {
    /// `launcher`.
    public static let moduleName = "launcher"
    /// Registered by the launcher only; not a configuration feature.
    public static let featureFlag: String? = nil
    /// One line for the reference.
    public static let summary =
        "The launcher's own page: sign in, the catalog, installs and updates, opening mini-apps, settings."
    /// The event with a new snapshot.
    public static let stateEvent = "launcher.state"
    /// The origin this module answers.
    public static let origin = "app://launcher"
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("launcher.unknown_app", "The catalog has no app with this id."),
        ModuleErrorCode("launcher.invalid_argument", "The value is not one the app offers (e.g. a channel)."),
        ModuleErrorCode("launcher.failed", "The store could not do it; the message says why."),
    ]

    /// The actions.
    public static let actions = ModuleActions<LauncherModule>()
        .action("getState", result: LauncherSnapshot.self, summary: "What the launcher shows now.") { module, context in
            try module.check(context)
            return await module.controller.snapshot()
        }
        .action(
            "signIn", payload: SignInPayload.self, result: LauncherSnapshot.self,
            summary: "Signs in; problems show in `signIn` of the snapshot.",
            example: SignInPayload(email: "ada@example.com", password: "correct horse battery")
        ) { module, payload, context in
            try module.check(context)
            await module.controller.signIn(email: payload.email, password: payload.password)
            return await module.controller.snapshot()
        }
        .action(
            "register", payload: RegisterPayload.self, result: LauncherSnapshot.self,
            summary: "Creates an account and signs in; problems show in `signIn` of the snapshot.",
            example: RegisterPayload(
                email: "ada@example.com", password: "correct horse battery", confirmation: "correct horse battery",
                displayName: "Ada")
        ) { module, payload, context in
            try module.check(context)
            await module.controller.register(
                email: payload.email, password: payload.password, confirmation: payload.confirmation,
                displayName: payload.displayName ?? "")
            return await module.controller.snapshot()
        }
        .action("refresh", result: LauncherSnapshot.self, summary: "Fetches the catalog and checks for updates.") {
            module, context in
            try module.check(context)
            await module.controller.refresh()
            return await module.controller.snapshot()
        }
        .action(
            "install", payload: AppPayload.self, result: LauncherSnapshot.self,
            summary: "Installs an app, or downloads its update for the next launch.", example: AppPayload(appId: "notes")
        ) { module, payload, context in
            try module.check(context)
            try await module.run(payloadFields: ["appId"]) { try await $0.install(payload.appId) }
            return await module.controller.snapshot()
        }
        .action(
            "open", payload: AppPayload.self, result: LauncherSnapshot.self,
            summary: "Opens an app (installing it first when needed).", example: AppPayload(appId: "notes")
        ) { module, payload, context in
            try module.check(context)
            try await module.run(payloadFields: ["appId"]) { try await $0.open(payload.appId) }
            return await module.controller.snapshot()
        }
        .action(
            "clear", payload: AppPayload.self, result: LauncherSnapshot.self, summary: "Removes an app's files.",
            example: AppPayload(appId: "notes")
        ) { module, payload, context in
            try module.check(context)
            try await module.run(payloadFields: ["appId"]) { try await $0.clear(payload.appId) }
            return await module.controller.snapshot()
        }
        .action(
            "setChannel", payload: ChannelPayload.self, result: LauncherSnapshot.self,
            summary: "Follows another channel of an app.", example: ChannelPayload(appId: "notes", channel: "beta")
        ) { module, payload, context in
            try module.check(context)
            try await module.run(payloadFields: ["appId", "channel"]) {
                try await $0.setChannel(payload.channel, for: payload.appId)
            }
            return await module.controller.snapshot()
        }
        .action("unlock", result: LauncherSnapshot.self, summary: "Asks for a biometric check to release the session.") {
            module, context in
            try module.check(context)
            await module.controller.unlock()
            return await module.controller.snapshot()
        }
        .action(
            "unlockWithPassword", payload: PasswordPayload.self, result: LauncherSnapshot.self,
            summary: "Unlocks with the password (checked by the server): the fallback.",
            example: PasswordPayload(password: "correct horse battery")
        ) { module, payload, context in
            try module.check(context)
            await module.controller.unlock(password: payload.password)
            return await module.controller.snapshot()
        }
        .action(
            "setBiometricUnlock", payload: BiometricUnlockPayload.self, result: LauncherSnapshot.self,
            summary: "Turns biometric unlock on (after a check) or off (with the password).",
            example: BiometricUnlockPayload(enabled: true, password: nil)
        ) { module, payload, context in
            try module.check(context)
            if payload.enabled {
                await module.controller.enableBiometricUnlock()
            } else {
                await module.controller.disableBiometricUnlock(password: payload.password ?? "")
            }
            return await module.controller.snapshot()
        }
        .action("signOut", result: LauncherSnapshot.self, summary: "Signs out; the session is revoked on the server.") {
            module, context in
            try module.check(context)
            await module.controller.signOut()
            return await module.controller.snapshot()
        }

    /// The launcher it drives.
    public let controller: LauncherController

    /// A module driving `controller`.
    public init(controller: LauncherController) { self.controller = controller }

    /// The snapshot event for `snapshot`.
    public static func event(_ snapshot: LauncherSnapshot) -> BridgeEvent {
        BridgeEvent(type: stateEvent, data: (try? JSONValue(encoding: snapshot)) ?? .null)
    }

    func check(_ context: ModuleContext) throws {
        guard context.caller.origin == Self.origin else {
            throw BridgeError(.permissionDenied, "launcher answers only \(Self.origin), not \(context.caller.origin)")
        }
    }

    func run(payloadFields: Set<String>, _ body: @MainActor (LauncherController) async throws -> Void) async throws {
        do {
            try await body(controller)
        } catch let error as MiniAppError {
            throw Self.bridgeError(error, payloadFields: payloadFields)
        }
    }

    /// The answer for `error`. Only an error about a value the page sent (`unknown_app`,
    /// `invalid_argument`, naming one of the action's `payloadFields`) carries `details.path`
    /// (`payload.appId`); a store, signature or download fault is `launcher.failed` with no
    /// payload path, whatever field it names (`sha256`, `keyId`, `manifest.appId`).
    static func bridgeError(_ error: MiniAppError, payloadFields: Set<String>) -> BridgeError {
        let code: String =
            switch error.code {
            case .unknownApp: "unknown_app"
            case .invalidArgument: "invalid_argument"
            default: "failed"
            }
        var details: JSONValue?
        if code != "failed", let field = error.field, payloadFields.contains(field) {
            details = .object(["path": .string("payload.\(field)")])
        }
        return BridgeError(.module("launcher", code), error.message, details: details)
    }
}

/// The payload of `launcher.signIn`.
public struct SignInPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The email address.
    public var email: String
    /// The password.
    public var password: String
    /// At most 254 and 1024 bytes.
    public func validate() throws(BridgeError) {
        try FieldCheck.length(email, "payload.email", maxBytes: 254)
        try FieldCheck.length(password, "payload.password", maxBytes: 1024)
    }
}

/// The payload of `launcher.register`.
public struct RegisterPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The email address.
    public var email: String
    /// The password.
    public var password: String
    /// The password again.
    public var confirmation: String
    /// The name mini-apps show.
    public var displayName: String?
    /// Lengths.
    public func validate() throws(BridgeError) {
        try FieldCheck.length(email, "payload.email", maxBytes: 254)
        try FieldCheck.length(password, "payload.password", maxBytes: 1024)
        try FieldCheck.length(confirmation, "payload.confirmation", maxBytes: 1024)
        try FieldCheck.length(displayName, "payload.displayName", maxBytes: 100)
    }
}

/// A payload naming one app.
public struct AppPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The app id.
    public var appId: String
    /// 1…64 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(appId, "payload.appId", maxBytes: 64) }
}

/// The payload of `launcher.setChannel`.
public struct ChannelPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The app id.
    public var appId: String
    /// The channel to follow.
    public var channel: String
    /// 1…64 bytes each.
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(appId, "payload.appId", maxBytes: 64)
        try FieldCheck.nonEmpty(channel, "payload.channel", maxBytes: 64)
    }
}

/// The payload of `launcher.unlockWithPassword`.
public struct PasswordPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// The account's password.
    public var password: String
    /// 1…1024 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(password, "payload.password", maxBytes: 1024) }
}

/// The payload of `launcher.setBiometricUnlock`.
public struct BiometricUnlockPayload: Codable, Sendable, Hashable, ValidatedPayload {
    /// On or off.
    public var enabled: Bool
    /// The password, required to turn it off.
    public var password: String?
    /// Turning off needs the password.
    public func validate() throws(BridgeError) {
        if !enabled {
            guard let password else { throw .field(.invalidPayload, path: "payload.password", "is required to turn it off") }
            try FieldCheck.nonEmpty(password, "payload.password", maxBytes: 1024)
        }
    }
}
