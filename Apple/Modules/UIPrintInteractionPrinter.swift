#if canImport(UIKit) && canImport(WebKit) && os(iOS)
    import PWAKitCore
    public import PWAKitModules
    import UIKit
    public import WebKit

    /// The ``PrintProvider`` over `UIPrintInteractionController`: prints what the web view shows,
    /// through its `viewPrintFormatter()`.
    ///
    /// The system print sheet decides everything else (printer, copies, range); cancelling it
    /// answers `printed: false`.
    @MainActor
    public final class UIPrintInteractionPrinter: PrintProvider {
        private let webView: @MainActor () -> WKWebView?

        /// Prints the web view `webView` returns.
        public init(webView: @escaping @MainActor () -> WKWebView?) {
            self.webView = webView
        }

        /// Whether the device can print and there is a page to print.
        public func canPrint() -> Bool {
            UIPrintInteractionController.isPrintingAvailable && webView() != nil
        }

        /// Presents the print sheet for the page as `jobName`; whether the job was sent.
        public func print(jobName: String) async throws -> Bool {
            guard let webView = webView() else {
                throw BridgeError(.module("print", "unavailable"), "there is no page to print")
            }
            let info = UIPrintInfo.printInfo()
            info.jobName = jobName
            info.outputType = .general
            let controller = UIPrintInteractionController.shared
            controller.printInfo = info
            controller.printFormatter = webView.viewPrintFormatter()
            let (completed, failure): (Bool, String?) = await withCheckedContinuation { continuation in
                let once = OneShotContinuation(continuation)
                let handler: UIPrintInteractionController.CompletionHandler = { _, completed, error in
                    let outcome = (completed, error?.localizedDescription)
                    MainActor.assumeIsolated { once.resume(outcome) }
                }
                // NB: on iPad the sheet is a popover and needs an anchor; the web view's centre is one.
                let presented =
                    UIDevice.current.userInterfaceIdiom == .pad
                    ? controller.present(
                        from: CGRect(x: webView.bounds.midX, y: webView.bounds.midY, width: 1, height: 1), in: webView,
                        animated: true, completionHandler: handler)
                    : controller.present(animated: true, completionHandler: handler)
                if !presented { once.resume((false, "the print sheet could not be shown")) }
            }
            if let failure { throw BridgeError(.module("print", "failed"), failure) }
            return completed
        }
    }
#endif
