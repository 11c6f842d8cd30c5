/// Supplies the device facts of `platform.getInfo`; each host has its own.
public protocol PlatformInfoProvider: Sendable {
    /// The operating system name used on the wire (`linux`, `ios`, …).
    var platform: String { get }
    /// The operating system's version.
    var osVersion: String { get }
    /// The device model.
    var deviceModel: String { get }
    /// The device's name.
    var deviceName: String { get }
    /// Whether device features are real here.
    var deviceFeatures: PlatformInfo.DeviceFeatures { get }
}
