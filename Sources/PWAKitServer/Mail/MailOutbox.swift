import Foundation
import Logging

/// Sends mail off the request path: a request queues the work that makes its message (looking up
/// the account, storing a link) and answers at once, so an answer never takes longer for an address
/// that has an account; a worker makes and sends the queue's messages, up to 16 at once, three attempts
/// per message (at once, after 2 s, after 8 s) for failures that may pass.
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

    /// Messages made or sent at once: one address's mail never waits behind another's unless this
    /// many are under way (which would otherwise tell, by delay, that another address has an account).
    static let concurrency = 16

    private func drain() async {
        repeat {
            await withTaskGroup(of: Void.self) { group in
                var running = 0
                while true {
                    while running < Self.concurrency, !queue.isEmpty {
                        let produce = queue.removeFirst()
                        running += 1
                        group.addTask { await self.deliver(produce) }
                    }
                    guard running > 0 else { break }
                    await group.next()
                    running -= 1
                }
            }
            // NB: checked and cleared with no suspension between, so nothing enqueued is left without a worker.
        } while !queue.isEmpty
        working = false
    }

    /// Makes one message and sends it, three attempts for failures that may pass.
    private nonisolated func deliver(_ produce: Producer) async {
        let message: MailMessage
        do {
            guard let made = try await produce() else { return }
            message = made
        } catch {
            logger.error("mail not made: \(error)")
            return
        }
        for (attempt, delay) in [0, 2, 8].enumerated() {
            if delay > 0 { try? await Task.sleep(for: .seconds(delay)) }
            do {
                try await sender.send(message)
                return
            } catch let error as MailError where error.isTransient && attempt < 2 {
                logger.warning("mail not sent yet, trying again: \(error)")
            } catch {
                logger.error("mail not sent: \(error)")
                return
            }
        }
    }
}
