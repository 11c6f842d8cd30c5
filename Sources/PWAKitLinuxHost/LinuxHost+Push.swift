#if WebKitGTK
    import PWAKitCore
    import PWAKitHost
    import PWAKitModules

    /// Pushes (scripted ones, clicked notifications) reach the page through the ``PushRelay``:
    /// attached when a main-frame document has finished loading, detached as soon as the next
    /// one commits, so pushes that arrive in between wait in the relay's queue. A push the relay
    /// handed over just before a commit, which reaches the main thread after it, goes back to
    /// the relay for the next page; one that reaches it while its page is current goes into the
    /// view at once. What stays open is the view's own moment: a push evaluated as the web
    /// process is already replacing the document goes with that document.
    extension LinuxHost {
        /// A new main-frame document committed: pushes queue until it has loaded.
        func detachPushes() {
            guard let push else { return }
            let previous = relayChain
            relayChain = Task {
                await previous?.value
                await push.detach()
            }
        }

        /// The main-frame document at `uri` finished loading: if it has the bridge and may use
        /// `notifications`, queued pushes go to it now and later ones as they arrive.
        func attachPushes(for uri: String) {
            guard let push, pushEnabled, isBridged, Self.grantsNotifications(navigator.grant(forDocumentAt: uri)) else {
                return
            }
            let generation = page.generation
            let deliver: @Sendable (BridgeEvent) -> Void = { event in
                Task { @MainActor [weak self] in self?.deliverPush(event, generation: generation) }
            }
            let previous = relayChain
            relayChain = Task {
                await previous?.value
                await push.attach(deliver)
            }
        }

        func deliverPush(_ event: BridgeEvent, generation: UInt64) {
            switch page.push(event, generation: generation) {
            case .show: show(event)
            // NB: its page is still opening; it waits in the page state, behind any held before it.
            case .held: break
            // NB: the page it was meant for is gone (a navigation committed before the relay was
            // detached): the relay keeps it for the next page, in order.
            case .requeue: requeuePush(event)
            }
        }

        func show(_ event: BridgeEvent) {
            emitLine(["event": "push", "data": event.data ?? .null])
            // NB: handed to the view here and now, not through another task that a commit could
            // overtake; the page holds it from this point on.
            evaluate(BridgeOutput.event(event).javaScript)
        }

        /// Hands `event` back to the relay, after the attaches and detaches already asked for.
        func requeuePush(_ event: BridgeEvent) {
            guard let push else { return }
            let previous = relayChain
            relayChain = Task {
                await previous?.value
                await push.requeue(event)
            }
        }

        static func grantsNotifications(_ grant: BridgeGrant) -> Bool {
            switch grant {
            case .denied: false
            case .all: true
            case .only(let entries):
                entries.contains { $0 == NotificationsModule.moduleName || $0.hasPrefix(NotificationsModule.moduleName + ".") }
            }
        }
    }
#endif
