public import Foundation
import PWAKitFiles
import Synchronization

/// What the person agreed to, per category, kept in a file so it holds across launches.
///
/// Categories that need consent (``TelemetryCategory/analytics``,
/// ``TelemetryCategory/performance``) are off until granted. In a debug build they stay off even
/// when granted unless ``sendInDebug`` is set, so development does not pollute production data.
public final class ConsentStore: Sendable {
    /// The file consent is kept in; `nil` keeps it in memory only.
    public let file: URL?
    /// Whether this is a debug build.
    public let isDebug: Bool
    /// Whether a debug build sends anyway (for testing the pipeline end to end).
    public let sendInDebug: Bool
    private let granted: Mutex<Set<String>>

    /// Categories that never need consent: they stay on the device.
    public static let local: Set<TelemetryCategory> = [.diagnostics]

    /// Opens the consent kept in `file` (none granted when it is missing or unreadable).
    public init(file: URL?, isDebug: Bool, sendInDebug: Bool = false) {
        self.file = file
        self.isDebug = isDebug
        self.sendInDebug = sendInDebug
        var initial: Set<String> = []
        if let file, let data = try? DurableFile.contents(of: file.path),
            let stored = try? JSONDecoder().decode([String].self, from: data)
        {
            initial = Set(stored)
        }
        granted = Mutex(initial)
    }

    /// Whether items of `category` may be recorded now.
    public func allows(_ category: TelemetryCategory) -> Bool {
        if Self.local.contains(category) { return true }
        if isDebug && !sendInDebug { return false }
        return granted.withLock { $0.contains(category.rawValue) }
    }

    /// Whether the person granted `category` (whatever the build).
    public func isGranted(_ category: TelemetryCategory) -> Bool { granted.withLock { $0.contains(category.rawValue) } }

    /// Grants or withdraws consent for `category`, and keeps it.
    public func set(_ category: TelemetryCategory, granted isGranted: Bool) throws {
        let snapshot = granted.withLock { set -> [String] in
            if isGranted { set.insert(category.rawValue) } else { set.remove(category.rawValue) }
            return set.sorted()
        }
        if let file { try DurableFile.replace(file.path, with: try JSONEncoder().encode(snapshot), permissions: 0o600) }
    }
}
