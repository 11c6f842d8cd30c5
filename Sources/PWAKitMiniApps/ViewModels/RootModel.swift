public import Observation
public import PWAKitAPI

/// Which screen the app shows, decided from the account (the seed's root routing: a stored
/// session → validate → launcher; none → login).
@MainActor
@Observable
public final class RootModel {
    /// The screens.
    public enum Route: Sendable, Hashable {
        /// Reading the stored session.
        case starting
        /// Sign in (registration is a sheet over it).
        case login
        /// The launcher grid.
        case launcher(UserResponse)
        /// Signed in but locked until the person unlocks.
        case locked(UserResponse)
    }

    /// The screen to show.
    public private(set) var route: Route = .starting
    /// Why the person is back at the login screen, when the server ended the session.
    public private(set) var notice: String?

    /// The account the routing follows.
    public let account: AccountSession
    @ObservationIgnored private var following: Task<Void, Never>?

    /// A root over `account`.
    public init(account: AccountSession) { self.account = account }

    /// Restores the stored session and follows the account from then on; a stored session is
    /// checked with the server in the background (offline, the launcher opens as it is). A
    /// session that cannot be restored (an unreadable stored one) leads to the login screen with
    /// the reason as the ``notice``.
    public func start() async {
        let state: AccountState
        var problem: String?
        do {
            state = try await account.restore()
        } catch {
            state = .signedOut
            problem = LauncherModel.sentence(error)
        }
        apply(state)
        if let problem { notice = problem }
        following?.cancel()
        let stream = await account.states()
        following = Task { [weak self] in
            for await state in stream { self?.apply(state) }
        }
        if state.user != nil {
            // NB: not awaited: the launcher opens at once; an ended session reaches the route through the account.
            let account = self.account
            Task { _ = try? await account.me() }
        }
    }

    /// Stops following the account.
    public func stop() {
        following?.cancel()
        following = nil
    }

    func apply(_ state: AccountState) {
        switch state {
        case .signedIn(let user):
            route = .launcher(user)
            notice = nil
        case .locked(let user): route = .locked(user)
        case .expired:
            route = .login
            notice = "Your session ended. Sign in again."
        case .signedOut: route = .login
        case .signingIn: break
        }
    }
}
