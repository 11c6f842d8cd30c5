public import PWAKitCore

/// `haptics` [features.haptics]: impact, notification and selection feedback.
public struct HapticsModule: ActionModule {
    /// `haptics`.
    public static let moduleName = "haptics"
    /// `haptics`.
    public static let featureFlag: String? = "haptics"
    /// One line for the reference.
    public static let summary = "Haptic feedback: impacts, notification patterns and selection ticks."
    /// `impact`, `notification`, `selection`.
    public static let actions = ModuleActions<HapticsModule>()
        .action(
            "impact", payload: ImpactFeedback.self, result: NoResult.self, summary: "An impact of the given style.",
            example: ImpactFeedback(style: .medium)
        ) { module, feedback, _ in
            await module.provider.impact(feedback.style)
            return NoResult()
        }
        .action(
            "notification", payload: NotificationFeedback.self, result: NoResult.self,
            summary: "The pattern for a success, warning or error.", example: NotificationFeedback(type: .success)
        ) { module, feedback, _ in
            await module.provider.notification(feedback.type)
            return NoResult()
        }
        .action("selection", result: NoResult.self, summary: "A light tick for a changed selection.") { module, _ in
            await module.provider.selection()
            return NoResult()
        }

    let provider: any HapticsProvider

    /// Creates the module over `provider`.
    public init(provider: any HapticsProvider) {
        self.provider = provider
    }
}

/// The payload of `haptics.impact`.
public struct ImpactFeedback: Codable, Sendable, Hashable {
    /// The impact's weight.
    public var style: ImpactStyle
    /// Creates a payload.
    public init(style: ImpactStyle) { self.style = style }
}

/// An impact's weight.
public enum ImpactStyle: String, Codable, Sendable, SchemaEnum {
    /// Light.
    case light
    /// Medium.
    case medium
    /// Heavy.
    case heavy
    /// Soft.
    case soft
    /// Rigid.
    case rigid
}

/// The payload of `haptics.notification`.
public struct NotificationFeedback: Codable, Sendable, Hashable {
    /// Which pattern.
    public var type: NotificationFeedbackType
    /// Creates a payload.
    public init(type: NotificationFeedbackType) { self.type = type }
}

/// A notification feedback pattern.
public enum NotificationFeedbackType: String, Codable, Sendable, SchemaEnum {
    /// Success.
    case success
    /// Warning.
    case warning
    /// Error.
    case error
}

/// Plays haptic feedback.
public protocol HapticsProvider: Sendable {
    /// An impact.
    func impact(_ style: ImpactStyle) async
    /// A notification pattern.
    func notification(_ type: NotificationFeedbackType) async
    /// A selection tick.
    func selection() async
}
