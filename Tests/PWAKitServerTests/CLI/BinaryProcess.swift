import Foundation
import PWAKitTesting
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Runs the built `pwakit` binary (set `PWAKIT_BINARY` to override the default `.build/debug/pwakit`)
/// through PWAKitTesting's ``BuiltBinary``.
enum PWAKitBinary {
    static var url: URL {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return (try? BuiltBinary.locate("pwakit", override: "PWAKIT_BINARY", packageRoot: packageRoot).url)
            ?? packageRoot.appendingPathComponent(".build/debug/pwakit")
    }

    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs to completion and returns exit status and output.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> Result {
        let run = try await BuiltBinary(url: url).run(arguments, environment: environment)
        return Result(status: run.status, stdout: run.stdout, stderr: run.stderr)
    }
}

/// A `pwakit server` process, started and waited for until it prints its URL.
final class ServerProcess {
    let process: Process
    let baseURL: URL

    private init(process: Process, baseURL: URL) {
        self.process = process
        self.baseURL = baseURL
    }

    static func start(_ arguments: [String], environment: [String: String] = [:]) async throws -> ServerProcess {
        let process = Process()
        process.executableURL = PWAKitBinary.url
        // NB: the server exits when this test process is gone, so a crashed run never leaves it holding output open.
        process.environment = ProcessInfo.processInfo.environment.merging([
            "PWAKIT_EXIT_WITH_PARENT": String(ProcessInfo.processInfo.processIdentifier)
        ]) { $1 }
        .merging(environment) { $1 }
        process.arguments = ["server", "--port", "0", "--password-cost", "16"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.standardError
        let line: String = try await withCheckedThrowingContinuation { continuation in
            let buffer = LineBuffer(continuation: continuation)
            out.fileHandleForReading.readabilityHandler = { handle in buffer.append(handle.availableData) }
            process.terminationHandler = { _ in buffer.fail() }
            do { try process.run() } catch { buffer.fail(error) }
        }
        out.fileHandleForReading.readabilityHandler = nil
        guard let range = line.range(of: "http://"),
            let url = URL(string: String(line[range.lowerBound...]).components(separatedBy: " ")[0])
        else {
            throw ProcessFailure("unexpected first line: \(line)")
        }
        return ServerProcess(process: process, baseURL: url)
    }

    /// Waits for the process to end (after a signal, say) and returns its exit status.
    func waitForExit() async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            let pending = Mutex<CheckedContinuation<Int32, Never>?>(continuation)
            let finish = { @Sendable (status: Int32) in pending.withLock { $0.take() }?.resume(returning: status) }
            process.terminationHandler = { finish($0.terminationStatus) }
            if !process.isRunning { finish(process.terminationStatus) }
        }
    }

    func stop() async {
        guard process.isRunning else { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            process.terminate()
        }
    }
}

/// Collects output until the first line that names the listening URL.
private final class LineBuffer: Sendable {
    private struct State {
        var data = Data()
        var continuation: CheckedContinuation<String, any Error>?
    }
    private let state: Mutex<State>

    init(continuation: CheckedContinuation<String, any Error>) { state = Mutex(State(continuation: continuation)) }

    func append(_ chunk: Data) {
        state.withLock { state in
            state.data.append(chunk)
            let text = String(decoding: state.data, as: UTF8.self)
            if let line = text.split(separator: "\n").first(where: { $0.contains("listening on") }) {
                state.continuation?.resume(returning: String(line))
                state.continuation = nil
            }
        }
    }

    func fail(_ error: (any Error)? = nil) {
        state.withLock { state in
            state.continuation?.resume(throwing: error ?? ProcessFailure("server exited before listening"))
            state.continuation = nil
        }
    }
}

struct ProcessFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Plain HTTP calls to a server process.
enum HTTPProbe {
    static func call(_ method: String, _ url: URL, json: [String: Any]? = nil, headers: [String: String] = [:]) async throws -> (
        Int, JSONBody
    ) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let json {
            request.httpBody = try JSONSerialization.data(withJSONObject: json)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        let object = (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) ?? NSNull()
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, JSONBody(object))
    }
}
