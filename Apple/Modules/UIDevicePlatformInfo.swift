#if canImport(UIKit)
    import Foundation
    import PWAKitCore
    public import PWAKitModules
    import UIKit

    /// The ``PlatformInfoProvider`` of an iPhone or iPad: `UIDevice` and the hardware model
    /// identifier (`iPhone16,1`), read once on the main thread.
    public struct UIDevicePlatformInfo: PlatformInfoProvider {
        /// `ios` (iPadOS included).
        public let platform: String
        /// `UIDevice.systemVersion`, e.g. `18.2`.
        public let osVersion: String
        /// The model identifier; in the Simulator, the simulated model's.
        public let deviceModel: String
        /// `UIDevice.name` (a generic name such as `iPhone` unless the app has the entitlement for
        /// the user-assigned one).
        public let deviceName: String
        /// Real: the providers act on the device.
        public let deviceFeatures = PlatformInfo.DeviceFeatures.real

        /// Reads the facts.
        @MainActor
        public init() {
            let device = UIDevice.current
            #if targetEnvironment(macCatalyst)
                platform = "macos"
            #elseif os(visionOS)
                platform = "visionos"
            #else
                platform = "ios"
            #endif
            osVersion = device.systemVersion
            deviceName = device.name
            deviceModel = ProcessInfo.processInfo.environment["SIMULATOR_MODEL_IDENTIFIER"] ?? Self.modelIdentifier()
        }

        /// `uname`'s machine field, e.g. `iPhone16,1`.
        static func modelIdentifier() -> String {
            var system = utsname()
            uname(&system)
            return withUnsafeBytes(of: system.machine) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
    }
#endif
