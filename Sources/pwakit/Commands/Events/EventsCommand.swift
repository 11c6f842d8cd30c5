import ArgumentParser
import Foundation
import PWAKitAPI
import PWAKitCore
import PWAKitEvents
import PWAKitMiniApps
import PWAKitModules
import PWAKitRetry

/// `pwakit events`: the app's analytics buffer from the command line — record events into it as any
/// process of an app does, and relay them to the platform server.
struct EventsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "events",
        abstract: "Record analytics events into a buffer directory and relay them to the platform server.",
        subcommands: [EventsRecordCommand.self, EventsRelayCommand.self, EventsStatusCommand.self]
    )
}

/// Where the buffer is, and how much it holds.
struct BufferOptions: ParsableArguments {
    @Option(help: "The event buffer directory (default: $XDG_DATA_HOME/pwakit/events or ~/.local/share/pwakit/events).")
    var buffer: String?

    @Option(
        help:
            "A pwa-config.json (or its directory): the buffer is events/ in its app group's folder, $XDG_DATA_HOME/pwakit/app-groups/<identifiers.appGroup>."
    )
    var config: String?

    @Option(help: "Most events the buffer holds; beyond it the oldest are dropped and counted.")
    var maxEvents = 10_000

    func validate() throws {
        guard (1...10_000_000).contains(maxEvents) else { throw ValidationError("--max-events must be between 1 and 10000000") }
        if buffer != nil, config != nil { throw ValidationError("give --buffer or --config, not both") }
    }

    /// `--buffer`, else `events/` in `--config`'s app group folder, else the default.
    func directory() throws -> URL {
        if let buffer { return URL(fileURLWithPath: buffer, isDirectory: true) }
        if let config {
            let file = try ConfigurationLoader.locate(URL(fileURLWithPath: config))
            let identifiers = AppIdentifiers(try ConfigurationLoader.load(from: file))
            return AppGroupFolder.url(for: identifiers).appendingPathComponent("events", isDirectory: true)
        }
        return URL(fileURLWithPath: Self.defaultPath, isDirectory: true)
    }

    func open() throws -> EventBuffer {
        try EventBuffer(
            directory: try directory(),
            limits: EventBufferLimits(maximumEvents: maxEvents, maximumBytes: max(10 * 1024 * 1024, maxEvents * 2048)))
    }

    static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        let data = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? (NSHomeDirectory() + "/.local/share")
        return data + "/pwakit/events"
    }
}

/// `pwakit events record`: queues events durably and prints each id once it is on disk.
struct EventsRecordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Queue events in the buffer; each id is printed once the event is on disk.")

    @OptionGroup var bufferOptions: BufferOptions

    @Option(help: "The event's name: a-z, 0-9, _ and ., starting with a letter.")
    var name: String

    @Option(help: "Which process records it.")
    var source = "cli"

    @Option(help: "How many events to record (each with a `sequence` property from 0).")
    var count = 1

    @Option(
        name: .customLong("property"),
        help: "A property as key=value (repeatable); true, false and numbers are typed, anything else is text.")
    var properties: [String] = []

    func validate() throws {
        guard (1...10_000_000).contains(count) else { throw ValidationError("--count must be between 1 and 10000000") }
        for property in properties where !property.contains("=") {
            throw ValidationError("--property \(property) is not key=value")
        }
    }

    func run() async throws {
        try await CommandFailure.run {
            let buffer = try bufferOptions.open()
            var fields: [String: ScalarValue] = [:]
            for property in properties {
                let parts = property.split(separator: "=", maxSplits: 1).map(String.init)
                let value = parts.count > 1 ? parts[1] : ""
                fields[parts[0]] =
                    value == "true"
                    ? .bool(true)
                    : value == "false"
                        ? .bool(false)
                        : Double(value).map(ScalarValue.number)
                            ?? .string(value)
            }
            for sequence in 0..<count {
                let now = Int64(Date().timeIntervalSince1970 * 1000)
                var eventFields = fields
                if count > 1 { eventFields["sequence"] = .number(Double(sequence)) }
                let event = EventPayload(
                    id: EventID.make(milliseconds: now), name: name, timestamp: now, source: source, properties: eventFields)
                try buffer.record(event)
                // NB: printed only once the event is durable, so whoever reads this line may count on it.
                FileHandle.standardOutput.write(Data((event.id + "\n").utf8))
            }
        }
    }
}

/// `pwakit events relay`: sends the buffer to the server, once or until stopped.
struct EventsRelayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relay",
        abstract: "Send the buffered events to the platform server; deletes each only once the server has it.")

    @OptionGroup var bufferOptions: BufferOptions
    @OptionGroup var account: AccountOptions

    @Flag(help: "Send what is queued and exit, instead of relaying until stopped.")
    var once = false

    @Option(help: "Seconds between flushes when relaying until stopped.")
    var interval = 30

    @Option(help: "Events per batch (1 to 500).")
    var batchSize = 100

    @Option(help: "Seconds one request may take before it counts as failed and is sent again.")
    var timeout = 10

    @Option(help: "The longest wait between failed attempts, in seconds (the wait doubles from 1 s up to it).")
    var maxBackoff = 300

    func validate() throws {
        guard (1...500).contains(batchSize) else { throw ValidationError("--batch-size must be between 1 and 500") }
        guard (1...86_400).contains(interval) else { throw ValidationError("--interval must be between 1 and 86400") }
        guard (1...600).contains(timeout) else { throw ValidationError("--timeout must be between 1 and 600") }
        guard (1...3600).contains(maxBackoff) else { throw ValidationError("--max-backoff must be between 1 and 3600") }
    }

    func run() async throws {
        try await CommandFailure.run {
            let buffer = try bufferOptions.open()
            let session = try await account.signIn()
            guard let url = URL(string: account.server) else { throw CommandFailure("--server is not a URL") }
            var backoff = RetryPolicy.eventRelay
            backoff.maximumDelay = .seconds(maxBackoff)
            backoff.initialDelay = min(backoff.initialDelay, backoff.maximumDelay)
            let relay = try EventRelay(
                buffer: buffer, client: APIClient(baseURL: url, retry: .none, timeout: .seconds(timeout)),
                accessToken: { try await session.accessToken() }, retry: backoff, batchSize: batchSize)
            if once {
                let report = try await relay.flush()
                print(
                    "sent \(report.batches) batches: \(report.accepted) stored, \(report.duplicates) already stored, "
                        + "\(report.rejected) refused, \(report.quarantined) quarantined, \(report.retries) retries")
            } else {
                try await relay.run(interval: .seconds(interval))
            }
        }
    }
}

/// `pwakit events status`: what the buffer holds.
struct EventsStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "status", abstract: "How many events are queued and how many were dropped and not yet reported.")

    @OptionGroup var bufferOptions: BufferOptions

    func run() async throws {
        try await CommandFailure.run {
            let buffer = try bufferOptions.open()
            print("queued \(try buffer.count()), dropped \(try buffer.droppedCount())")
        }
    }
}
