#if canImport(UIKit) && os(iOS)
    import Foundation
    import PWAKitCore
    public import PWAKitModules
    public import UIKit

    /// The ``ShareProvider`` over `UIActivityViewController`, presented from the view controller
    /// `presenter` returns.
    ///
    /// Text and the URL are shared as they are; files are written to a temporary directory that
    /// the next share clears (an activity may still read them after the sheet reports). The sheet
    /// has no place for a title, so `title` is not shown. Dismissing the sheet answers
    /// `shared: false`.
    @MainActor
    public final class ActivityViewShare: ShareProvider {
        private let presenter: @MainActor () -> UIViewController?

        /// Presents the share sheet from the view controller `presenter` returns (normally the one
        /// holding the web view).
        public init(presenter: @escaping @MainActor () -> UIViewController?) {
            self.presenter = presenter
        }

        /// Whether there is a view controller to present from; the sheet takes any text, URL or file.
        public func canShare(_ request: ShareRequest) -> Bool {
            presenter() != nil
        }

        /// Presents the sheet; whether the user completed an activity.
        public func share(_ request: ShareRequest) async throws -> Bool {
            guard let presenter = presenter() else {
                throw BridgeError(.module("share", "unavailable"), "there is no screen to present the share sheet on")
            }
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("pwakit-share", isDirectory: true)
            try? FileManager.default.removeItem(at: root)
            let directory = root.appendingPathComponent(UUID().uuidString, isDirectory: true)
            var items: [Any] = []
            if let text = request.text { items.append(text) }
            if let url = request.url.flatMap(URL.init(string:)) { items.append(url) }
            if let files = request.files, !files.isEmpty {
                do {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                    for file in files {
                        let location = directory.appendingPathComponent(file.name, isDirectory: false)
                        try file.data.bytes.write(to: location, options: .atomic)
                        items.append(location)
                    }
                } catch {
                    throw BridgeError(.moduleError, "the files could not be prepared for sharing: \(error.localizedDescription)")
                }
            }
            let controller = UIActivityViewController(activityItems: items, applicationActivities: nil)
            // NB: on iPad the sheet is a popover and needs an anchor; the presenter's centre is one.
            if let popover = controller.popoverPresentationController {
                popover.sourceView = presenter.view
                popover.sourceRect = CGRect(x: presenter.view.bounds.midX, y: presenter.view.bounds.midY, width: 1, height: 1)
                popover.permittedArrowDirections = []
            }
            let (completed, failure): (Bool, String?) = await withCheckedContinuation { continuation in
                let once = OneShotContinuation(continuation)
                controller.completionWithItemsHandler = { _, completed, _, error in
                    let outcome = (completed, error?.localizedDescription)
                    MainActor.assumeIsolated { once.resume(outcome) }
                }
                presenter.present(controller, animated: true)
            }
            if let failure { throw BridgeError(.moduleError, "the share sheet failed: \(failure)") }
            return completed
        }
    }
#endif
