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
