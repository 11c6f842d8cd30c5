import Foundation
import Logging

/// Sends mail off the request path: a request queues the work that makes its message (looking up
/// the account, storing a link) and answers at once, so an answer never takes longer for an address
/// that has an account; one worker makes and sends the queue's messages in order, three attempts per
/// message (at once, after 2 s, after 8 s) for failures that may pass.
///
/// The queue lives in memory and holds 1,000 messages at most: a message queued when it is full, or
/// still queued when the process stops, is lost and logged — a sign-in link is asked for again.
actor MailOutbox {
    private let sender: any MailSender
    private let logger: Logger
    /// Makes a message, or nil when there is nothing to send (no such account).
    typealias Producer = @Sendable () async throws -> MailMessage?
    private var queue: [Producer] = []
    private var working = false
    static let capacity = 1_000

    init(sender: any MailSender, logger: Logger = Logger(label: "pwakit.mail")) {
        self.sender = sender
        self.logger = logger
    }

    /// Queues a message; false (and logged) when the queue is full.
    @discardableResult
    func enqueue(_ message: MailMessage) -> Bool { enqueue { message } }

    /// Queues the work that makes a message; false (and logged) when the queue is full.
    @discardableResult
    func enqueue(_ produce: @escaping Producer) -> Bool {
        guard queue.count < Self.capacity else {
            logger.error("mail queue full; a message was dropped")
            return false
        }
        queue.append(produce)
        if !working {
            working = true
            Task { await self.drain() }
        }
        return true
    }

    private func drain() async {
        while !queue.isEmpty {
            let produce = queue.removeFirst()
            let message: MailMessage
            do {
                guard let made = try await produce() else { continue }
                message = made
            } catch {
                logger.error("mail not made: \(error)")
                continue
            }
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
