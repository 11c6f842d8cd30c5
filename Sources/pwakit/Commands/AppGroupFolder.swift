import Foundation
import PWAKitCore

/// The Linux stand-in for an app group's shared container: one folder per group that every
/// process of the app (the app, `pwakit events`, an extension's command) opens,
/// `$XDG_DATA_HOME/pwakit/app-groups/<appGroup>` (`~/.local/share/…` without `XDG_DATA_HOME`).
enum AppGroupFolder {
    /// The folder of `identifiers.appGroup`.
    static func url(for identifiers: AppIdentifiers, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> URL
    {
        // NB: the validator holds an app group to "group." and reverse-DNS labels, so it is one safe path component.
        dataHome(environment: environment).appendingPathComponent("pwakit/app-groups/\(identifiers.appGroup)")
    }

    /// `$XDG_DATA_HOME` when it is an absolute path, else `~/.local/share`.
    static func dataHome(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let data = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? (NSHomeDirectory() + "/.local/share")
        return URL(fileURLWithPath: data, isDirectory: true)
    }
}
