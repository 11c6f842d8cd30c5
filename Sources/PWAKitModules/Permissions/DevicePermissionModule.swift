public import PWAKitCore

/// `camera`, `microphone` and `location` [features.cameraPermission, microphonePermission,
/// locationPermission]: the system permission for each device, checked and requested.
///
/// Three modules of one shape, so that each feature flag turns off exactly one of them.
public struct DevicePermissionModule<Kind: DevicePermissionKind>: ActionModule {
    /// The module's name.
    public static var moduleName: String { Kind.permission.rawValue }
    /// The feature flag.
    public static var featureFlag: String? { Kind.permission.featureFlag }
    /// One line for the reference.
    public static var summary: String { "The \(Kind.permission.rawValue) permission: check it, or ask the user for it." }
    /// The PWAKit project's name for the module (`cameraPermission`, …) and its actions.
    public static var aliases: [ModuleAlias] {
        [
            ModuleAlias(
                Kind.permission.featureFlag, actions: ["checkPermission": "check", "requestPermission": "request"])
        ]
    }
    /// `check`, `request`.
    public static var actions: ModuleActions<Self> {
        ModuleActions<Self>()
            .action("check", result: PermissionStatus.self, summary: "The permission's state, without asking.") {
                module, _ in
                PermissionStatus(state: await module.provider.state(of: Kind.permission))
            }
            .action(
                "request", result: PermissionStatus.self,
                summary: "Asks the user when the state is `notDetermined`; returns the resulting state."
            ) { module, _ in
                PermissionStatus(state: await module.provider.request(Kind.permission))
            }
    }

    let provider: any PermissionProvider

    /// Creates the module over `provider`.
    public init(provider: any PermissionProvider) {
        self.provider = provider
    }
}

/// Names one device permission at the type level.
public protocol DevicePermissionKind: Sendable {
    /// The permission.
    static var permission: DevicePermission { get }
}

/// The camera permission's module.
public enum CameraPermission: DevicePermissionKind {
    /// `.camera`.
    public static let permission = DevicePermission.camera
}

/// The microphone permission's module.
public enum MicrophonePermission: DevicePermissionKind {
    /// `.microphone`.
    public static let permission = DevicePermission.microphone
}

/// The location permission's module.
public enum LocationPermission: DevicePermissionKind {
    /// `.location`.
    public static let permission = DevicePermission.location
}

/// A device permission.
public enum DevicePermission: String, Codable, Sendable, CaseIterable, SchemaEnum {
    /// The camera.
    case camera
    /// The microphone.
    case microphone
    /// The device's location.
    case location

    /// Its feature flag.
    public var featureFlag: String {
        switch self {
        case .camera: "cameraPermission"
        case .microphone: "microphonePermission"
        case .location: "locationPermission"
        }
    }
}

/// A permission's state.
public enum PermissionState: String, Codable, Sendable, SchemaEnum {
    /// Allowed.
    case granted
    /// Refused by the user.
    case denied
    /// The user has not been asked.
    case notDetermined
    /// Refused by policy (parental controls, device management); asking does not help.
    case restricted
}

/// The result of `check` and `request`.
public struct PermissionStatus: Codable, Sendable, Hashable {
    /// The state.
    public var state: PermissionState
}

/// Checks and requests device permissions.
public protocol PermissionProvider: Sendable {
    /// The state of `permission`.
    func state(of permission: DevicePermission) async -> PermissionState
    /// Asks for `permission` when undetermined; returns the resulting state.
    func request(_ permission: DevicePermission) async -> PermissionState
}
