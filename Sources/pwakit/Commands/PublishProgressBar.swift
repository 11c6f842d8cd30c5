import Foundation

/// A one-line progress bar on standard error: `[#####-----] 3/10 blobs, 1.2/4.0 MiB`.
struct PublishProgressBar {
    let totalItems: Int
    let totalBytes: Int
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

    func draw() {
        let fraction =
            totalBytes > 0 ? Double(bytes) / Double(totalBytes) : (totalItems > 0 ? Double(items) / Double(totalItems) : 1)
        let filled = min(width, Int((fraction * Double(width)).rounded(.down)))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let line = "\r[\(bar)] \(items)/\(totalItems) blobs, \(Self.mebibytes(bytes))/\(Self.mebibytes(totalBytes)) MiB"
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() { FileHandle.standardError.write(Data("\n".utf8)) }

    static func mebibytes(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
