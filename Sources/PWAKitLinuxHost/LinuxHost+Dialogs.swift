#if WebKitGTK
    import CWebKitGTK
    import PWAKitCore

    extension LinuxHost {
        static let onScriptDialog: @convention(c) (UnsafeMutablePointer<WebKitWebView>?, OpaquePointer?, gpointer?) -> gboolean =
            {
                _, dialog, data in
                let host = LinuxHost.host(data)
                guard let dialog else { return 0 }
                return MainActor.assumeIsolated { host.answer(dialog) ? 1 : 0 }
            }

        /// Answers a dialog at once in the automatic modes; returns false to let WebKitGTK show
        /// its native dialog.
        func answer(_ dialog: OpaquePointer) -> Bool {
            let type = webkit_script_dialog_get_dialog_type(dialog)
            let message = webkit_script_dialog_get_message(dialog).map { String(cString: $0) } ?? ""
            let kind: String =
                switch type {
                case WEBKIT_SCRIPT_DIALOG_ALERT: "alert"
                case WEBKIT_SCRIPT_DIALOG_CONFIRM: "confirm"
                case WEBKIT_SCRIPT_DIALOG_PROMPT: "prompt"
                default: "beforeunload"
                }
            guard options.dialogs != .native else {
                emitLine(["event": "dialog", "kind": .string(kind), "message": .string(message)])
                return false
            }
            let accept = options.dialogs == .accept
            var line: [String: JSONValue] = [
                "event": "dialog", "kind": .string(kind), "message": .string(message), "accepted": .bool(accept),
            ]
            switch type {
            case WEBKIT_SCRIPT_DIALOG_CONFIRM, WEBKIT_SCRIPT_DIALOG_BEFORE_UNLOAD_CONFIRM:
                webkit_script_dialog_confirm_set_confirmed(dialog, accept ? 1 : 0)
            case WEBKIT_SCRIPT_DIALOG_PROMPT:
                if accept {
                    let text =
                        options.promptAnswer
                        ?? webkit_script_dialog_prompt_get_default_text(dialog).map { String(cString: $0) } ?? ""
                    webkit_script_dialog_prompt_set_text(dialog, text)
                    line["answer"] = .string(text)
                }
            default:
                break
            }
            emitLine(line)
            return true
        }
    }
#endif
