#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import PWAKitCore
    import PWAKitHost

    extension LinuxHost {
        static let onDecidePolicy:
            @convention(c) (
                UnsafeMutablePointer<WebKitWebView>?, UnsafeMutablePointer<WebKitPolicyDecision>?, WebKitPolicyDecisionType,
                gpointer?
            ) -> gboolean = { _, decision, type, data in
                let host = LinuxHost.host(data)
                guard let decision else { return 0 }
                return MainActor.assumeIsolated { host.decide(decision, type) ? 1 : 0 }
            }

        /// Returns whether the decision was made here.
        func decide(_ decision: UnsafeMutablePointer<WebKitPolicyDecision>, _ type: WebKitPolicyDecisionType) -> Bool {
            switch type {
            case WEBKIT_POLICY_DECISION_TYPE_NAVIGATION_ACTION, WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION:
                let navigation = pwakit_navigation_decision(decision)
                guard let action = webkit_navigation_policy_decision_get_navigation_action(navigation),
                    let request = webkit_navigation_action_get_request(action),
                    let raw = webkit_uri_request_get_uri(request)
                else {
                    webkit_policy_decision_ignore(decision)
                    return true
                }
                let uri = String(cString: raw)
                let newWindow = type == WEBKIT_POLICY_DECISION_TYPE_NEW_WINDOW_ACTION
                // NB: WebKitGTK does not say which frame a navigation is for. A navigation the
                // person asked for (a link, a form, a gesture) may leave the app; one a script or
                // an iframe started without a gesture is only ever loaded or blocked, so an
                // embedded frame cannot open the desktop browser.
                let navigationType = webkit_navigation_action_get_navigation_type(action)
                let asked =
                    newWindow || webkit_navigation_action_is_user_gesture(action) != 0
                    || navigationType == WEBKIT_NAVIGATION_TYPE_LINK_CLICKED
                    || navigationType == WEBKIT_NAVIGATION_TYPE_FORM_SUBMITTED
                if newWindow {
                    webkit_policy_decision_ignore(decision)
                    openWindow(uri, asked: asked)
                    return true
                }
                let outcome = navigator.decide(uri, target: .mainFrame)
                switch outcome {
                case .load, .loadForSignIn:
                    webkit_policy_decision_use(decision)
                case .openExternally(let url), .openInSystem(let url):
                    webkit_policy_decision_ignore(decision)
                    let kind = if case .openInSystem = outcome { "system" } else { "external" }
                    if asked {
                        open(url, kind: kind)
                    } else {
                        emitLine(["event": "blocked", "url": .string(url), "reason": "not-asked-by-the-person"])
                    }
                case .block:
                    webkit_policy_decision_ignore(decision)
                    emitLine(["event": "blocked", "url": .string(uri), "reason": "policy"])
                }
                return true
            case WEBKIT_POLICY_DECISION_TYPE_RESPONSE:
                let response = pwakit_response_decision(decision)
                guard webkit_response_policy_decision_is_main_frame_main_resource(response) != 0,
                    let request = webkit_response_policy_decision_get_request(response),
                    let raw = webkit_uri_request_get_uri(request)
                else { return false }
                // The final URL of a top-level load, after redirects: bind the scripts to its
                // origin before the document exists.
                let uri = String(cString: raw)
                if let answer = webkit_response_policy_decision_get_response(response) {
                    let status = Int(webkit_uri_response_get_status_code(answer))
                    if status >= 400 { mainDocumentFailed(uri, status: status, message: nil) }
                }
                switch navigator.decide(uri, target: .mainFrame) {
                case .load, .loadForSignIn:
                    prepareScripts(for: uri)
                    return false
                default:
                    webkit_policy_decision_ignore(decision)
                    emitLine(["event": "blocked", "url": .string(uri), "reason": "redirect"])
                    return true
                }
            default:
                return false
            }
        }

        static let onLoadFailed:
            @convention(c) (
                UnsafeMutablePointer<WebKitWebView>?, WebKitLoadEvent, UnsafePointer<gchar>?, UnsafeMutablePointer<GError>?,
                gpointer?
            ) -> gboolean = { _, _, failing, error, data in
                let host = LinuxHost.host(data)
                guard let error else { return 0 }
                // NB: a load the policy stopped, or one superseded by another, is not a failure of the page.
                if error.pointee.domain == webkit_policy_error_quark() { return 0 }
                if error.pointee.domain == webkit_network_error_quark(),
                    error.pointee.code == Int32(WEBKIT_NETWORK_ERROR_CANCELLED.rawValue)
                {
                    return 0
                }
                let url = failing.map { String(cString: $0) } ?? ""
                let message = error.pointee.message.map { String(cString: $0) } ?? "the page could not be loaded"
                MainActor.assumeIsolated { host.mainDocumentFailed(url, status: nil, message: message) }
                // WebKit shows its own error page in a window.
                return 0
            }

        /// The main document did not load (an HTTP error status, or a network or TLS error): a line on
        /// the output, and in a scripted run, when it is the start page, the end of the run (status 7).
        func mainDocumentFailed(_ url: String, status: Int?, message: String?) {
            var line: [String: JSONValue] = ["event": "loadFailed", "url": .string(url)]
            if let status { line["status"] = .number(Double(status)) }
            if let message { line["message"] = .string(message) }
            emitLine(line)
            if !loadFinishedOnce, options.screenshot != nil || options.report { finish(7) }
        }

        static let onCreate:
            @convention(c) (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?) -> UnsafeMutablePointer<
                GtkWidget
            >? = { _, action, data in
                // NB: new windows never open. A target=_blank link arrives in decide-policy; a
                // script's window.open (allowed: with a gesture, or with --allow-popups) arrives
                // only here, and its URL follows the same policy.
                guard let action, let data else { return nil }
                let host = LinuxHost.host(data)
                MainActor.assumeIsolated {
                    guard let request = webkit_navigation_action_get_request(action),
                        let raw = webkit_uri_request_get_uri(request)
                    else { return }
                    let asked = webkit_navigation_action_is_user_gesture(action) != 0 || host.options.allowPopups
                    host.openWindow(String(cString: raw), asked: asked)
                }
                return nil
            }

        /// A new window for `uri`: an allowed URL loads in the app's own view (as in the seed),
        /// an external one goes to the desktop when the person asked for it, anything else is
        /// blocked.
        func openWindow(_ uri: String, asked: Bool) {
            let outcome = navigator.decide(uri, target: .newWindow)
            switch outcome {
            case .load, .loadForSignIn:
                webkit_web_view_load_uri(webView, uri)
            case .openExternally(let url), .openInSystem(let url):
                let kind = if case .openInSystem = outcome { "system" } else { "external" }
                if asked {
                    open(url, kind: kind)
                } else {
                    emitLine(["event": "blocked", "url": .string(url), "reason": "not-asked-by-the-person"])
                }
            case .block:
                emitLine(["event": "blocked", "url": .string(uri), "reason": "policy"])
            }
        }

        /// Hands `url` to the desktop (`xdg-open`) or to the handler the options inject.
        func open(_ url: String, kind: String) {
            emitLine(["event": .string(kind), "url": .string(url)])
            if let openURL = options.openURL {
                openURL(url, kind)
                return
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["xdg-open", url]
            try? process.run()
        }

        static let onLoadChanged: @convention(c) (UnsafeMutablePointer<WebKitWebView>?, WebKitLoadEvent, gpointer?) -> Void = {
            view, event, data in
            let host = LinuxHost.host(data)
            guard let view else { return }
            let uri = webkit_web_view_get_uri(view).map { String(cString: $0) } ?? ""
            MainActor.assumeIsolated { host.loadChanged(event, uri: uri) }
        }

        func loadChanged(_ event: WebKitLoadEvent, uri: String) {
            switch event {
            case WEBKIT_LOAD_COMMITTED:
                detachPushes()
                documentCommitted(uri)
                let signingIn = navigator.decide(uri, target: .mainFrame) == .loadForSignIn
                if signingIn { gtk_widget_show(signInBar) } else { gtk_widget_hide(signInBar) }
                emitLine([
                    "event": "committed", "url": .string(uri), "bridge": .bool(isBridged), "signInBar": .bool(signingIn),
                ])
            case WEBKIT_LOAD_FINISHED:
                emit(BridgeEvent(type: "loaded", data: ["url": .string(uri)]))
                emitLine(["event": "loaded", "url": .string(uri)])
                attachPushes(for: uri)
                if !loadFinishedOnce {
                    loadFinishedOnce = true
                    onFirstLoad?(self)
                }
                if options.screenshot != nil && options.waitFor == .paint && !snapshotStarted {
                    takeSnapshotAfterPaint()
                }
            default:
                break
            }
        }

        var isBridged: Bool { page.isBridged }

        // MARK: Signing in

        func makeSignInBar() -> UnsafeMutablePointer<GtkWidget> {
            let bar = gtk_info_bar_new()!
            let label = gtk_label_new("Signing in. You are on a page outside the app.")!
            let content = gtk_info_bar_get_content_area(pwakit_info_bar(bar))
            gtk_container_add(pwakit_container(content), label)
            gtk_info_bar_add_button(pwakit_info_bar(bar), "Back to the app", 1)
            connect(bar, "response", Self.onSignInBarResponse)
            return bar
        }

        static let onSignInBarResponse: @convention(c) (UnsafeMutablePointer<GtkInfoBar>?, Int32, gpointer?) -> Void = {
            _, _, data in
            let host = LinuxHost.host(data)
            MainActor.assumeIsolated { webkit_web_view_load_uri(host.webView, host.launch.startURL) }
        }
    }
#endif
