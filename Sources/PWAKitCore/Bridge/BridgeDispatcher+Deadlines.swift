extension BridgeDispatcher {
    /// Makes sure a sweep runs no later than `deadline`.
    ///
    /// NB: one sleeping task serves every call's deadline. Calls share the default timeout,
    /// so a new deadline is almost never earlier than the one already scheduled, and no call
    /// pays for a timer task of its own.
    func scheduleSweep(for deadline: Duration) {
        if let target = sweeperTarget, target <= deadline { return }
        sweeper?.cancel()
        sweeperGeneration += 1
        let generation = sweeperGeneration
        sweeperTarget = deadline
        let sleep = sleepUntil
        sweeper = Task { [weak self] in
            do {
                try await sleep(deadline)
            } catch {
                return
            }
            await self?.sweep(generation: generation)
        }
    }

    /// Times out every call whose deadline has passed and schedules the next sweep.
    func sweep(generation: UInt64) {
        guard generation == sweeperGeneration else { return }
        sweeperTarget = nil
        sweeper = nil
        let current = now()
        var next: Duration?
        for (key, entry) in calls {
            if entry.deadline <= current {
                let limit = entry.deadline - entry.started
                let error = BridgeError(
                    .timeout, "\(entry.module).\(entry.action) did not finish within \(limit.milliseconds) ms",
                    details: ["timeoutMs": .number(Double(limit.milliseconds))])
                finish(key, token: nil, .failure(error), deliver: true)
            } else if next.map({ entry.deadline < $0 }) ?? true {
                next = entry.deadline
            }
        }
        if let next { scheduleSweep(for: next) }
    }
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { nanoseconds / 1_000_000 }

}
