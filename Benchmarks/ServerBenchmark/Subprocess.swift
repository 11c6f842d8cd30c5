import Foundation

/// A child process whose first stdout line matching a prefix is awaited without sleeping.
final class Child {
    let process = Process()
    private let output = Pipe()

    init(_ executable: String, _ arguments: [String]) {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.standardError
    }

    func start() throws { try process.run() }

    /// Reads stdout until a line starts with `prefix`; returns that line.
    func waitForLine(prefix: String) throws -> String {
        var buffer = Data()
        while true {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw BenchmarkError("process exited before printing '\(prefix)'") }
            buffer.append(chunk)
            if let line = String(decoding: buffer, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix(prefix) }) {
                return String(line)
            }
        }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }
}

/// Runs a command to completion and returns its standard output.
func runToCompletion(_ executable: String, _ arguments: [String]) throws -> String {
    let process = Process()
    let output = Pipe()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = output
    process.standardError = FileHandle.standardError
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { throw BenchmarkError("\(executable) \(arguments.joined(separator: " ")) failed") }
    return String(decoding: data, as: UTF8.self)
}

/// The first executable with this name on PATH.
func which(_ name: String) throws -> String {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin"
    for directory in path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"] {
        let candidate = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
    }
    throw BenchmarkError("\(name) not found; apt-get install -y wrk nginx util-linux")
}
