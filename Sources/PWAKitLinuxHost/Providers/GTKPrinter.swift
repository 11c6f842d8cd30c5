#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import PWAKitCore
    import PWAKitModules

    /// Prints the current page with WebKit's print operation: through GTK's print dialog, or,
    /// with ``HostOptions/printTo``, straight to a PDF file through GTK's print-to-file
    /// printer without a dialog.
    ///
    /// Scripted runs (dialogs answered automatically) without `printTo` never show a dialog:
    /// the job counts as cancelled, so a test cannot hang on it.
    @MainActor
    final class GTKPrinter: PrintProvider {
        private let link: HostLink
        private let log: @Sendable (String) -> Void

        init(link: HostLink, log: @escaping @Sendable (String) -> Void) {
            self.link = link
            self.log = log
        }

        func canPrint() async -> Bool { true }

        func print(jobName: String) async throws -> Bool {
            guard let host = link.host, let webView = host.webView else {
                throw BridgeError(.module("print", "unavailable"), "there is no page to print")
            }
            let operation = webkit_print_operation_new(webView)!
            let mode: PrintJob.Mode
            if let file = host.options.printTo {
                let settings = pwakit_print_to_file_settings(file.absoluteString)
                webkit_print_operation_set_print_settings(operation, settings)
                g_object_unref(UnsafeMutableRawPointer(settings))
                mode = .file
                log("print: \"\(jobName)\" to \(file.path)")
            } else if host.options.dialogs == .native {
                mode = .dialog(host.window)
                log("print: \"\(jobName)\" through the print dialog")
            } else {
                g_object_unref(operation)
                log("print: \"\(jobName)\" cancelled (scripted run without --print-to)")
                return false
            }
            let outcome = await withCheckedContinuation { continuation in
                PrintJob(operation: operation, mode: mode, continuation: continuation).start()
            }
            switch outcome {
            case .success(let printed):
                log("print: \"\(jobName)\" \(printed ? "sent" : "cancelled")")
                return printed
            case .failure(let error):
                log("print: \"\(jobName)\" failed: \(error.message)")
                throw error
            }
        }
    }

    /// One print operation, alive until WebKit says it finished.
    @MainActor
    private final class PrintJob {
        enum Mode {
            case file
            case dialog(UnsafeMutablePointer<GtkWidget>?)
        }

        let operation: UnsafeMutablePointer<WebKitPrintOperation>
        let mode: Mode
        var continuation: CheckedContinuation<Result<Bool, BridgeError>, Never>?
        var failure: String?

        init(
            operation: UnsafeMutablePointer<WebKitPrintOperation>, mode: Mode,
            continuation: CheckedContinuation<Result<Bool, BridgeError>, Never>
        ) {
            self.operation = operation
            self.mode = mode
            self.continuation = continuation
        }

        /// Starts the job; the job keeps itself alive until it ends.
        func start() {
            let data = Unmanaged.passRetained(self).toOpaque()
            pwakit_signal_connect(operation, "failed", unsafeBitCast(Self.onFailed, to: GCallback.self), data)
            pwakit_signal_connect(operation, "finished", unsafeBitCast(Self.onFinished, to: GCallback.self), data)
            switch mode {
            case .file:
                webkit_print_operation_print(operation)
            case .dialog:
                // NB: the dialog runs a nested main loop; started from an idle callback rather than
                // from inside the main queue's drain, the bridge keeps working while it is open.
                g_idle_add(Self.onIdle, data)
            }
        }

        func end(_ outcome: Result<Bool, BridgeError>) {
            guard let continuation else { return }
            self.continuation = nil
            continuation.resume(returning: outcome)
            let data = Unmanaged.passUnretained(self).toOpaque()
            g_signal_handlers_disconnect_matched(operation, G_SIGNAL_MATCH_DATA, 0, 0, nil, nil, data)
            g_object_unref(operation)
            Unmanaged.passUnretained(self).release()
        }

        static let onIdle: @convention(c) (gpointer?) -> gboolean = { data in
            let job = Unmanaged<PrintJob>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                guard case .dialog(let window) = job.mode else { return }
                let parent = window.flatMap { pwakit_window($0) }
                if webkit_print_operation_run_dialog(job.operation, parent) == WEBKIT_PRINT_OPERATION_RESPONSE_CANCEL {
                    job.end(.success(false))
                }
            }
            return 0
        }

        static let onFailed:
            @convention(c) (UnsafeMutablePointer<WebKitPrintOperation>?, UnsafeMutablePointer<GError>?, gpointer?) -> Void = {
                _, error, data in
                let job = Unmanaged<PrintJob>.fromOpaque(data!).takeUnretainedValue()
                let message = error.map { String(cString: $0.pointee.message) } ?? "the print job failed"
                MainActor.assumeIsolated { job.failure = message }
            }

        static let onFinished: @convention(c) (UnsafeMutablePointer<WebKitPrintOperation>?, gpointer?) -> Void = {
            _, data in
            let job = Unmanaged<PrintJob>.fromOpaque(data!).takeUnretainedValue()
            MainActor.assumeIsolated {
                if let failure = job.failure {
                    job.end(.failure(BridgeError(.module("print", "failed"), failure)))
                } else {
                    job.end(.success(true))
                }
            }
        }
    }
#endif
