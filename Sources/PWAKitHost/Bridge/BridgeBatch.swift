public import PWAKitCore

/// Answers a batch of messages the ``BridgeScripts/relay`` posted together.
///
/// With ``BridgeScripts/batching`` on, the relay sends the messages a page posts within one
/// task as one native message (the message texts and the document's token) and waits for one
/// reply. That reply is a JSON array of the answers
/// whose handlers finished at once, in the order of their messages; the answer to a message
/// whose handler suspends goes to `late` when it is ready, and the host hands it to the relay
/// with ``BridgeScripts/lateAnswerScript(_:document:)`` and the batch's token. Either way the page receives every answer once.
///
/// Handlers finish "at once" only when the dispatcher shares the caller's executor (a host
/// on its main thread passes `MainActor.sharedUnownedExecutor`); otherwise every answer is late,
/// which is slower but equally correct.
@MainActor
public enum BridgeBatch {
    /// Dispatches `messages` of page load `page` in order and returns the reply text: a JSON
    /// array of the answers ready now. Later answers go to `late`, each once.
    public static func answer(
        _ messages: [String], page: PageLoadID, dispatcher: BridgeDispatcher,
        late: @escaping @MainActor (String) -> Void
    ) -> String {
        let collector = Collector()
        for message in messages {
            Task.immediate { @MainActor in
                guard let answer = await dispatcher.handleInlineJSON(message, from: page) else { return }
                if collector.open {
                    collector.ready.append(answer)
                } else {
                    late(answer)
                }
            }
        }
        collector.open = false
        var reply = "["
        reply.reserveCapacity(collector.ready.reduce(2) { $0 + $1.utf8.count + 1 })
        for (index, answer) in collector.ready.enumerated() {
            if index > 0 { reply += "," }
            reply += answer
        }
        reply += "]"
        return reply
    }

    /// The answers that finished while the batch was being dispatched.
    private final class Collector {
        var open = true
        var ready: [String] = []
    }
}
