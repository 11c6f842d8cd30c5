#if WebKitGTK
    import CWebKitGTK
    import PWAKitModules

    /// The desktop's clipboard (the X11/Wayland `CLIPBOARD` selection) through GTK.
    ///
    /// Text written here is offered to the clipboard manager for storing, so it outlives the
    /// app when the desktop runs one (GTK hands it over as the main loop ends); without a
    /// manager it lasts as long as the app, as for any X11 program.
    @MainActor
    final class GTKClipboard: ClipboardProvider {
        private let log: @Sendable (String) -> Void

        init(log: @escaping @Sendable (String) -> Void) {
            self.log = log
        }

        func write(_ text: String) async throws {
            let clipboard = pwakit_clipboard()
            gtk_clipboard_set_text(clipboard, text, Int32(text.utf8.count))
            gtk_clipboard_set_can_store(clipboard, nil, 0)
            log("clipboard: wrote \(text.utf8.count) bytes")
        }

        func read() async throws -> String? {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                let box = Unmanaged.passRetained(TextBox(continuation)).toOpaque()
                let received: @convention(c) (OpaquePointer?, UnsafePointer<gchar>?, gpointer?) -> Void = {
                    _, text, data in
                    let box = Unmanaged<TextBox>.fromOpaque(data!).takeRetainedValue()
                    box.continuation.resume(returning: text.map { String(cString: $0) })
                }
                gtk_clipboard_request_text(pwakit_clipboard(), received, box)
            }
        }
    }

    private final class TextBox {
        let continuation: CheckedContinuation<String?, Never>
        init(_ continuation: CheckedContinuation<String?, Never>) { self.continuation = continuation }
    }
#endif
