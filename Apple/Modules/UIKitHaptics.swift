#if canImport(UIKit) && os(iOS)
    import PWAKitCore
    public import PWAKitModules
    public import UIKit

    /// The ``HapticsProvider`` over UIKit's feedback generators.
    ///
    /// Each generator is attached to the view `view` returns (normally the web view), as UIKit
    /// asks since iOS 17.5; with no view on screen there is nothing to play on, and the call
    /// does nothing.
    @MainActor
    public final class UIKitHaptics: HapticsProvider {
        private let view: @MainActor () -> UIView?

        /// Plays feedback on the view `view` returns.
        public init(view: @escaping @MainActor () -> UIView?) {
            self.view = view
        }

        /// `UIImpactFeedbackGenerator.impactOccurred()`.
        public func impact(_ style: ImpactStyle) {
            guard let view = view() else { return }
            UIImpactFeedbackGenerator(style: Self.style(style), view: view).impactOccurred()
        }

        /// `UINotificationFeedbackGenerator.notificationOccurred(_:)`.
        public func notification(_ type: NotificationFeedbackType) {
            guard let view = view() else { return }
            UINotificationFeedbackGenerator(view: view).notificationOccurred(Self.feedbackType(type))
        }

        /// `UISelectionFeedbackGenerator.selectionChanged()`.
        public func selection() {
            guard let view = view() else { return }
            UISelectionFeedbackGenerator(view: view).selectionChanged()
        }

        static func style(_ style: ImpactStyle) -> UIImpactFeedbackGenerator.FeedbackStyle {
            switch style {
            case .light: .light
            case .medium: .medium
            case .heavy: .heavy
            case .soft: .soft
            case .rigid: .rigid
            }
        }

        static func feedbackType(_ type: NotificationFeedbackType) -> UINotificationFeedbackGenerator.FeedbackType {
            switch type {
            case .success: .success
            case .warning: .warning
            case .error: .error
            }
        }
    }
#endif
