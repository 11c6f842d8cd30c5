import WatchLink

/// The request both the floor and WatchLink move: a small payload echoed back.
struct Echo: WatchRequest {
    static var typeKey: WatchTypeKey { WatchTypeKey("bench.echo") }
    typealias Response = Echo
    var text: String
}

/// A durable fire-and-forget record.
struct Record: WatchFireAndForget {
    static var typeKey: WatchTypeKey { WatchTypeKey("bench.record") }
    var text: String
}
