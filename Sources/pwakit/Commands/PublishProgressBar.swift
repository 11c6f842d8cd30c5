import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A one-line progress bar on standard error: `[#####-----] 3/10 blobs, 1.2/4.0 MiB`, drawn only
/// when standard error is a terminal (a log or a pipe gets no carriage returns).
struct PublishProgressBar {
    let totalItems: Int
    let totalBytes: Int
    /// Whether to draw at all.
    var enabled = isatty(2) != 0
    /// Whether a line is on screen, waiting for its newline.
    private var drawn = false
    private(set) var items = 0
    private(set) var bytes = 0
    private let width = 30

    init(totalItems: Int, totalBytes: Int) {
        self.totalItems = totalItems
        self.totalBytes = totalBytes
    }

    mutating func advance(bytes count: Int) {
        items += 1
        bytes += count
        draw()
    }

    mutating func draw() {
        guard enabled else { return }
        drawn = true
        let fraction =
            totalBytes > 0 ? Double(bytes) / Double(totalBytes) : (totalItems > 0 ? Double(items) / Double(totalItems) : 1)
        let filled = min(width, Int((fraction * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r[\(bar)] \(summary)"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Ends the line, so what follows (a summary, an error) starts on a line of its own; off a terminal,
    /// writes the one line the bar would have ended with.
    mutating func finish() {
        if drawn {
            drawn = false
            FileHandle.standardError.write(Data("\n".utf8))
        } else if !enabled {
            FileHandle.standardError.write(Data("uploaded \(summary)\n".utf8))
        }
    }

    var summary: String { "\(items)/\(totalItems) blobs, \(Self.mebibytes(bytes))/\(Self.mebibytes(totalBytes)) MiB" }

    static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
