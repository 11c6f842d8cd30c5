/// Namespace for facts about this build of PWAKit.
public enum PWAKit {
    /// The version of PWAKit, reported to pages by `platform.getInfo` and the handshake.
    public static let version = "0.1.0"
}
