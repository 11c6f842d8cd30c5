#if WebKitGTK
    import Foundation
    import PWAKitBundles
    import PWAKitCore
    import PWAKitHost
    import PWAKitLinuxHost
    import PWAKitMiniApps

    /// Connects a host window to a mini-app launch: page events feed the ready rule, its deadline
    /// runs on the main actor, a rollback ends the run (exit status 6), and signing out reaches
    /// the page as `session.signedOut`.
    @MainActor
    struct MiniAppWindow {
        let window: LinuxHost
        let guardian: LaunchGuard
        let account: AccountSession?
        let output: @Sendable (String) -> Void

        func attach() {
            let guardian = self.guardian
            let output = self.output
            window.onPageEvent = { [weak window] event in
                guard let window else { return }
                let action: ReadyWatch.Action
                do {
                    switch event {
                    case .opened(let load, let origin): action = try guardian.documentOpened(load, origin: origin)
                    case .ready(let load, let origin): action = try guardian.reportedReady(load, origin: origin)
                    case .webProcessTerminated: action = try guardian.handle(.webProcessTerminated)
                    }
                } catch {
                    output(MiniAppOpenCommand.line(["event": "storeError", "message": .string("\(error)")]))
                    return
                }
                Self.perform(action, window: window, guardian: guardian, output: output)
            }
            if let account {
                Task { @MainActor [weak window] in
                    var signedIn = true
                    for await state in await account.states() {
                        let now = state.user != nil
                        if signedIn, !now { window?.sendEvent(BridgeEvent(type: SessionModule.signedOutEvent)) }
                        signedIn = now
                    }
                }
            }
        }

        static func perform(
            _ action: ReadyWatch.Action, window: LinuxHost, guardian: LaunchGuard, output: @escaping @Sendable (String) -> Void
        ) {
            let release = guardian.release
            switch action {
            case .none: break
            case .startDeadline(let deadline):
                Task { @MainActor [weak window] in
                    try? await Task.sleep(for: deadline)
                    guard let window else { return }
                    let next: ReadyWatch.Action
                    do { next = try guardian.handle(.deadlineElapsed) } catch {
                        // NB: as for a page event: a rollback the store refused is said, never dropped.
                        output(MiniAppOpenCommand.line(["event": "storeError", "message": .string("\(error)")]))
                        return
                    }
                    perform(next, window: window, guardian: guardian, output: output)
                }
            case .confirm:
                output(
                    MiniAppOpenCommand.line([
                        "event": "releaseConfirmed", "appId": .string(release.appId), "bundleHash": .string(release.bundleHash),
                    ]))
            case .rollBack(let reason):
                output(
                    MiniAppOpenCommand.line([
                        "event": "rolledBack", "appId": .string(release.appId), "bundleHash": .string(release.bundleHash),
                        "version": .string(release.manifest.version), "reason": .string(reason),
                    ]))
                window.stop(6)
            }
        }
    }
#endif
