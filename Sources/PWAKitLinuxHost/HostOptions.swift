#if WebKitGTK
    public import Foundation
    public import PWAKitModules

    /// How a ``LinuxHost`` runs: windowed for a person, or scripted for screenshots and tests.
    public struct HostOptions: Sendable {
        /// What the host waits for before a screenshot.
        public enum WaitCondition: String, Sendable, CaseIterable {
            /// The first paint after the load event (two animation frames).
            case paint
            /// The page's `PWAKit.ready()` signal.
            case ready
        }

        /// How `alert`, `confirm` and `prompt` are answered.
        public enum DialogMode: String, Sendable, CaseIterable {
            /// Native GTK dialogs, answered by the person.
            case native
            /// Answered at once: confirm → OK, prompt → its default text (or ``promptAnswer``).
            case accept
            /// Answered at once: confirm → Cancel, prompt → null.
            case dismiss
        }

        /// Where a PNG of the first painted view goes; the host exits after writing it.
        public var screenshot: URL?
        /// What the screenshot waits for.
        public var waitFor: WaitCondition = .paint
        /// How long a scripted run may take before it fails.
        public var timeout: Duration = .seconds(30)
        /// Registers the `report` module and exits with the page's verdict.
        public var report = false
        /// How dialogs are answered.
        public var dialogs: DialogMode = .native
        /// The text an accepted prompt answers with (its default text when nil).
        public var promptAnswer: String?
        /// The window's size in pixels.
        public var width = 1024
        /// The window's size in pixels.
        public var height = 768
        /// The directory that holds each app's website data (default: the XDG directories).
        public var dataDirectory: URL?
        /// Receives URLs handed to the desktop (external origins) and the system (`tel:` …),
        /// instead of `xdg-open`.
        public var openURL: (@Sendable (_ url: String, _ kind: String) -> Void)?
        /// Receives each line the host reports (JSON text), standard output by default.
        public var output: @Sendable (String) -> Void = { line in
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }

        /// Registers the benchmark floor: a handler named `echo` in the bridge's isolated world
        /// that answers every message with its own text, straight from the signal callback.
        public var floorEcho = false

        /// Lets scripts open windows without a gesture (`window.open`, `target=_blank` clicks);
        /// their URLs still follow the navigation policy.
        public var allowPopups = false

        /// Where `print.print` writes the page as PDF, through GTK's print-to-file printer and
        /// without a dialog (nil: the print dialog).
        public var printTo: URL?

        /// A script for the simulated device (``SimulatedDevice``); its `pushes` reach the page
        /// through the push relay once the page has loaded.
        public var simulation: SimulationScript?

        /// Scripts run at document start in every top frame that has the bridge, after the SDK
        /// (a mini-app's seed-era globals).
        public var pageScripts: [String] = []

        /// Default options: a window for a person.
        public init() {}
    }
#endif
