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
    /// Why the kept file could not be read when the store opened, if it could not: nothing is then
    /// granted, and the first ``set(_:granted:)`` moves that file aside (`<name>.unreadable-<ms>`)
    /// before writing, so the person's earlier choices are kept for inspection, never overwritten.
    public let problem: String?
    /// Whether the kept file could not be read and has not been moved aside yet.
    private let unreadableFile: Mutex<Bool>

    /// Categories that never need consent: they stay on the device.
    public static let local: Set<TelemetryCategory> = [.diagnostics]

    /// Opens the consent kept in `file`: none granted when it is missing, or when it cannot be read
    /// (then ``problem`` says why, and the file is kept aside at the first change).
    public init(file: URL?, isDebug: Bool, sendInDebug: Bool = false) {
        self.file = file
        self.isDebug = isDebug
        self.sendInDebug = sendInDebug
        var initial: Set<String> = []
        var problem: String?
        if let file {
            do {
                if let data = try DurableFile.contents(of: file.path) {
                    initial = Set(try JSONDecoder().decode([String].self, from: data))
                }
            } catch {
                problem = "the consent kept in \(file.path) cannot be read (\(error)); nothing is granted"
            }
        }
        self.problem = problem
        unreadableFile = Mutex(problem != nil)
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
        guard let file else { return }
        try unreadableFile.withLock { unreadable in
            guard unreadable else { return }
            let aside = file.path + ".unreadable-\(Int64((Date().timeIntervalSince1970 * 1000).rounded()))"
            try DurableFile.move(file.path, to: aside)
            unreadable = false
        }
        try DurableFile.replace(file.path, with: try JSONEncoder().encode(snapshot), permissions: 0o600)
    }
}
