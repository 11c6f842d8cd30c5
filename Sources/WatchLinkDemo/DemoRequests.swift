import WatchLink

/// One step of the ordered demo workload; the watch records each step it runs.
struct Step: WatchRequest {
    typealias Response = StepDone
    static var typeKey: WatchTypeKey { WatchTypeKey("demo.step") }
    var n: Int
}

/// The watch's answer to a ``Step``.
struct StepDone: Codable, Sendable {
    var n: Int
    var total: Int
}

/// Asks the watch which mood it sees: how the phone learns that its last shared-state update
/// arrived before it exits.
struct MoodCheck: WatchRequest {
    typealias Response = MoodSeen
    static var typeKey: WatchTypeKey { WatchTypeKey("demo.mood-check") }
}

/// The mood the watch sees.
struct MoodSeen: Codable, Sendable {
    var mood: String
}

/// A durable fire-and-forget note (`phone --notes N`); the watch records each note it runs.
struct Note: WatchFireAndForget {
    static var typeKey: WatchTypeKey { WatchTypeKey("demo.note") }
    var n: Int
}
