public import Foundation
public import PWAKitCore

/// What a host opens: a configuration, what its `app://` origin serves (a local bundle
/// directory, or a release from the mini-app store), and the URL to load first.
public struct AppLaunch: Sendable {
    /// The app's configuration.
    public var configuration: PWAConfiguration
    /// The directory served as `app://<appId>/`, when the start URL is an `app://` URL.
    public var bundleRoot: URL?
    /// The release served as `app://<appId>/` instead of a directory (a mini-app from the store).
    public var release: ReleaseFiles?
    /// The first URL loaded.
    public var startURL: String
    /// What `app.getVersion` answers: the release's version for a mini-app, else ``HostModules/defaultVersion``.
    public var version = HostModules.defaultVersion
    /// The build `app.getVersion` answers.
    public var build = HostModules.defaultBuild

    /// Creates a launch from its parts.
    public init(configuration: PWAConfiguration, bundleRoot: URL?, startURL: String, release: ReleaseFiles? = nil) {
        self.configuration = configuration
        self.bundleRoot = bundleRoot
        self.startURL = startURL
        self.release = release
    }

    /// The app id of an `app://<appId>/…` start URL.
    public var appID: String? {
        guard let origin = Origin(url: startURL), origin.scheme == "app" else { return nil }
        return origin.host
    }

    /// Resolves `target`: an `http(s)` URL (run as an ad-hoc app allowing only its own
    /// origin), a `pwa-config.json` file, or a directory holding one. For a configuration
    /// whose start URL is `app://…`, the bundle is `bundle` if given, else the directory the
    /// configuration is in. An invalid configuration is an error with its report, never a
    /// silent default.
    public static func resolve(_ target: String, bundle: String? = nil) throws(HostError) -> AppLaunch {
        if target.hasPrefix("https://") || target.hasPrefix("http://") {
            return try adHoc(url: target)
        }
        let configURL: URL
        let configuration: PWAConfiguration
        do {
            configURL = try ConfigurationLoader.locate(URL(fileURLWithPath: target))
            configuration = try ConfigurationLoader.load(from: configURL)
        } catch {
            var message = error.message
            if let report = error.report {
                for issue in report.issues { message += "\n  \(issue)" }
            }
            throw HostError(.invalidArgument, message)
        }
        var root: URL?
        if configuration.app.startUrl.lowercased().hasPrefix("app://") {
            let directory = bundle.map { URL(fileURLWithPath: $0) } ?? configURL.deletingLastPathComponent()
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory),
                isDirectory.boolValue
            else {
                throw HostError(.invalidArgument, "bundle directory \(directory.path) does not exist")
            }
            root = directory
        }
        return AppLaunch(configuration: configuration, bundleRoot: root, startURL: configuration.app.startUrl)
    }

    /// An ad-hoc configuration for a bare URL: its host is the only allowed origin.
    static func adHoc(url: String) throws(HostError) -> AppLaunch {
        guard let origin = Origin(url: url), !origin.host.isEmpty else {
            throw HostError(.invalidArgument, "\(url) is not a URL with a host")
        }
        let label = origin.host.map { $0.isLetter || $0.isNumber ? $0 : "-" }
        let configuration = PWAConfiguration(
            app: AppSection(name: origin.host, bundleId: "run.pwakit.\(String(label))", startUrl: url),
            origins: OriginsSection(allowed: [origin.host]))
        return AppLaunch(configuration: configuration, bundleRoot: nil, startURL: url)
    }
}
