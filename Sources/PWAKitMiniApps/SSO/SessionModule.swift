import Foundation
import PWAKitAPI
public import PWAKitCore

/// `session`: single sign-on for the running mini-app. Answers only the mini-app's own origin
/// (`app://<appId>`), never a frame of another origin, whatever the grants say.
///
/// - `getLaunchCode` → a fresh single-use code and launch token bound to (user, app, hash of the
///   running release's manifest), from `POST /v1/launch/codes`; the page hands them to its own
///   backend, never in a URL.
/// - `getUser` → the signed-in user's public profile.
///
/// When the person signs out the host emits the ``signedOutEvent`` event to the page.
public struct SessionModule: ActionModule {
    /// `session`.
    public static let moduleName = "session"
    /// Always registered for a mini-app; not a configuration feature.
    public static let featureFlag: String? = nil
    /// One line for the reference.
    public static let summary = "Single sign-on for the running mini-app: launch codes and the signed-in user."
    /// The event sent to the page when the person signs out.
    public static let signedOutEvent = "session.signedOut"
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("session.not_signed_in", "No account is signed in (or the session ended); the launcher asks to sign in."),
        ModuleErrorCode("session.offline", "The platform server cannot be reached; try again when online."),
        ModuleErrorCode("session.refused", "The platform server refused to issue a launch code."),
    ]
    /// `getLaunchCode`, `getUser`.
    public static let actions = ModuleActions<SessionModule>()
        .action(
            "getLaunchCode", result: LaunchCode.self,
            summary: "A single-use code (and an Ed25519-signed launch token) for the mini-app's backend to exchange."
        ) { module, context in
            try module.checkOrigin(context)
            return try await module.launchCode()
        }
        .action("getUser", result: SessionUser.self, summary: "The signed-in user's public profile.") { module, context in
            try module.checkOrigin(context)
            guard let user = await module.account?.state.user else {
                throw BridgeError(.module("session", "not_signed_in"), "no account is signed in")
            }
            return SessionUser(id: user.id, email: user.email, displayName: user.displayName, emailVerified: false)
        }

    /// The app this module serves.
    public let appId: String
    /// The bundle hash of the release the page runs.
    public let bundleHash: String
    let account: AccountSession?

    /// A module for the release `bundleHash` of `appId`, signed in through `account` (nil: no
    /// account on this launch, e.g. offline; every action answers `session.not_signed_in`).
    public init(appId: String, bundleHash: String, account: AccountSession?) {
        self.appId = appId
        self.bundleHash = bundleHash
        self.account = account
    }

    /// The origin this module answers.
    public var origin: String { "app://\(appId)" }

    func checkOrigin(_ context: ModuleContext) throws {
        guard context.caller.origin == origin else {
            throw BridgeError(.permissionDenied, "session answers only \(origin), not \(context.caller.origin)")
        }
    }

    func launchCode() async throws -> LaunchCode {
        let request = LaunchCodeRequest(appId: appId, bundleHash: bundleHash)
        guard let account else { throw BridgeError(.module("session", "not_signed_in"), "no account is signed in") }
        do {
            let answer = try await account.authorized { token in try await account.client.launchCode(request, accessToken: token)
            }
            return LaunchCode(
                code: answer.code, launchToken: answer.launchToken,
                expiresAt: ISO8601DateFormatter().string(from: answer.expiresAt))
        } catch let error as APIClientError {
            throw error.accountBridgeError(module: "session")
                ?? BridgeError(.module("session", "refused"), "\(error.code): \(error.message)")
        }
    }
}

/// The result of `session.getLaunchCode`.
public struct LaunchCode: Codable, Sendable, Hashable {
    /// The single-use code, valid for about a minute.
    public var code: String
    /// The Ed25519-signed JWT with the same binding, for offline verification.
    public var launchToken: String
    /// When both expire (ISO 8601).
    public var expiresAt: String
}

/// The result of `session.getUser`.
public struct SessionUser: Codable, Sendable, Hashable {
    /// The stable user id.
    public var id: String
    /// The email address.
    public var email: String
    /// The name to show.
    public var displayName: String
    /// Always false: the platform does not verify email addresses yet.
    public var emailVerified: Bool
}
