import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads the device facts from the running system: `uname`, `/etc/os-release`, the host name.
///
/// On Linux device features are simulated: there is no haptic engine or secure enclave.
public struct SystemPlatformInfoProvider: PlatformInfoProvider {
    /// The operating system name.
    public let platform: String
    /// The operating system's version.
    public let osVersion: String
    /// The machine architecture.
    public let deviceModel: String
    /// The host name.
    public let deviceName: String
    /// Simulated on Linux.
    public let deviceFeatures: PlatformInfo.DeviceFeatures

    /// Reads the facts once; `osRelease` is the path of the os-release file.
    public init(osRelease: String = "/etc/os-release") {
        var system = utsname()
        uname(&system)
        func field<T>(_ value: T) -> String {
            withUnsafeBytes(of: value) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let kernel = field(system.release)
        #if os(Linux)
            platform = "linux"
            deviceFeatures = .simulated
            let pretty = (try? String(contentsOfFile: osRelease, encoding: .utf8)).flatMap(Self.prettyName)
            osVersion = pretty.map { "\($0) (kernel \(kernel))" } ?? "Linux \(kernel)"
        #else
            platform = field(system.sysname).lowercased()
            deviceFeatures = .simulated
            osVersion = kernel
        #endif
        deviceModel = field(system.machine)
        deviceName = ProcessInfo.processInfo.hostName
    }

    /// The `PRETTY_NAME` of an os-release file.
    static func prettyName(_ contents: String) -> String? {
        for line in contents.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
            var value = line.dropFirst("PRETTY_NAME=".count)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = value.dropFirst().dropLast() }
            return value.isEmpty ? nil : String(value)
        }
        return nil
    }
}
