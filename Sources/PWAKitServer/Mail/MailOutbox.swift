import Foundation
import Logging

/// Sends mail off the request path: a request queues its message and answers at once (so an answer
/// never takes longer for an address that has an account), and one worker sends the queue in order,
/// three attempts per message (at once, after 2 s, after 8 s) for failures that may pass.
///
/// The queue lives in memory and holds 1,000 messages at most: a message queued when it is full, or
/// still queued when the process stops, is lost and logged — a sign-in link is asked for again.
actor MailOutbox {
    private let sender: any MailSender
    private let logger: Logger
    private var queue: [MailMessage] = []
    private var working = false
    static let capacity = 1_000

    init(sender: any MailSender, logger: Logger = Logger(label: "pwakit.mail")) {
        self.sender = sender
        self.logger = logger
    }

    /// Queues a message; false (and logged) when the queue is full.
    @discardableResult
    func enqueue(_ message: MailMessage) -> Bool {
        guard queue.count < Self.capacity else {
            logger.error("mail queue full; a message was dropped")
            return false
        }
        queue.append(message)
        if !working {
            working = true
            Task { await self.drain() }
        }
        return true
    }

    private func drain() async {
        while !queue.isEmpty {
            let message = queue.removeFirst()
            for (attempt, delay) in [0, 2, 8].enumerated() {
                if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
                do {
                    try await sender.send(message)
                    break
                } catch let error as MailError where error.isTransient && attempt < 2 {
                    logger.warning("mail not sent yet, trying again: \(error)")
                } catch {
                    logger.error("mail not sent: \(error)")
                    break
                }
            }
        }
        working = false
    }
}
