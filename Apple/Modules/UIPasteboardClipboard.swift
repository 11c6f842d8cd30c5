#if canImport(UIKit) && os(iOS)
    import PWAKitCore
    public import PWAKitModules
    import UIKit

    /// The ``ClipboardProvider`` over `UIPasteboard.general`.
    ///
    /// Reading text another app copied shows the system's paste permission prompt; when the user
    /// declines, the read answers that there is no text.
    public struct UIPasteboardClipboard: ClipboardProvider {
        /// The general pasteboard.
        public init() {}

        /// Replaces the pasteboard's contents with `text`.
        @MainActor
        public func write(_ text: String) {
            UIPasteboard.general.string = text
        }

        /// The pasteboard's text, if it holds text.
        @MainActor
        public func read() -> String? {
            UIPasteboard.general.string
        }
    }
#endif
