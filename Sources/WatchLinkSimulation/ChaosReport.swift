import WatchLink

/// The outcome of a seeded chaos run: workload totals, faults injected and invariant violations.
package struct ChaosReport: Sendable, Hashable, CustomStringConvertible {
    /// The seed that reproduces the run.
    package var seed: UInt64
    /// Requests the workload tried to submit.
    package var requests = 0
    /// Requests submitted while their sender was crashed (never accepted, never promised).
    package var submittedWhileDown = 0
    /// Requests accepted by their sender.
    package var accepted = 0
    /// Accepted requests answered with a value.
    package var succeeded = 0
    /// Accepted requests settled with an error, by code.
    package var failures: [String: Int] = [:]
    /// Accepted requests with no outcome at all.
    package var lost = 0
    /// Non-durable requests that died unsettled with their sender's process (and caller).
    package var abandoned = 0
    /// `outcome_unknown` settlements whose handler had run once.
    package var outcomeUnknownRanOnce = 0
    /// `outcome_unknown` settlements whose handler had not run (crash before it was called).
    package var outcomeUnknownNeverRan = 0
    /// Requests whose handler ran more than once.
    package var duplicated = 0
    /// Requests settled after their deadline while their sender was running.
    package var late = 0
    /// Ordered requests whose handlers ran out of send order.
    package var fifoViolations = 0
    /// Shared-state keys whose values differ between the devices after quiescence.
    package var divergedStates = 0
    /// Cancellations the workload made (as a caller's task would), while the sender was up.
    package var cancels = 0
    /// Accepted requests settled `cancelled` whose handler had run once (sent before the cancel).
    package var cancelledRanOnce = 0
    /// Accepted requests settled `cancelled` whose handler never ran.
    package var cancelledNeverRan = 0
    /// File transfers the system accepted (the sender was up and activated).
    package var files = 0
    /// Accepted file transfers whose file is in the receiver's inbox after quiescence.
    package var filesDelivered = 0
    /// File transfers the workload cancelled while the sender was up.
    package var fileCancels = 0
    /// Shared-state updates made.
    package var stateUpdates = 0
    /// Faults injected, by kind.
    package var faults: [FaultKind: Int] = [:]
    /// Acknowledgement frames sent (several fire-and-forget answers in one frame).
    package var acknowledgementFrames = 0
    /// Answers those frames carried.
    package var acknowledgedAnswers = 0
    /// The most user-info transfers queued for one device at once.
    package var longestUserInfoQueue = 0
    /// The run's trace digest; equal digests mean identical runs.
    package var traceDigest: UInt64 = 0
    /// Descriptions of the first violations found.
    package var violations: [String] = []

    /// Creates an empty report for `seed`.
    package init(seed: UInt64) { self.seed = seed }

    /// Whether every invariant held.
    package var passed: Bool {
        lost == 0 && duplicated == 0 && late == 0 && fifoViolations == 0 && divergedStates == 0 && violations.isEmpty
    }

    /// The total of all injected faults.
    package var totalFaults: Int { faults.values.reduce(0, +) }

    /// Adds another run's totals into this one (the seed and digest are kept).
    package mutating func absorb(_ other: ChaosReport) {
        requests += other.requests
        submittedWhileDown += other.submittedWhileDown
        accepted += other.accepted
        succeeded += other.succeeded
        for (code, n) in other.failures { failures[code, default: 0] += n }
        lost += other.lost
        abandoned += other.abandoned
        outcomeUnknownRanOnce += other.outcomeUnknownRanOnce
        outcomeUnknownNeverRan += other.outcomeUnknownNeverRan
        duplicated += other.duplicated
        late += other.late
        fifoViolations += other.fifoViolations
        divergedStates += other.divergedStates
        stateUpdates += other.stateUpdates
        cancels += other.cancels
        files += other.files
        filesDelivered += other.filesDelivered
        fileCancels += other.fileCancels
        cancelledRanOnce += other.cancelledRanOnce
        cancelledNeverRan += other.cancelledNeverRan
        for (kind, n) in other.faults { faults[kind, default: 0] += n }
        acknowledgementFrames += other.acknowledgementFrames
        acknowledgedAnswers += other.acknowledgedAnswers
        longestUserInfoQueue = max(longestUserInfoQueue, other.longestUserInfoQueue)
        violations += other.violations.prefix(max(0, 10 - violations.count))
    }

    /// One line suitable for quoting.
    package var description: String {
        let failureText = failures.keys.sorted().map { "\($0)=\(failures[$0]!)" }.joined(separator: " ")
        let faultText = faults.keys.sorted().map { "\($0.rawValue)=\(faults[$0]!)" }.joined(separator: " ")
        return
            "requests=\(requests) submitted_while_down=\(submittedWhileDown) accepted=\(accepted) succeeded=\(succeeded) errors{\(failureText)} "
            + "outcome_unknown_ran{once=\(outcomeUnknownRanOnce) never=\(outcomeUnknownNeverRan)} abandoned=\(abandoned) "
            + "cancels=\(cancels) cancelled_ran{once=\(cancelledRanOnce) never=\(cancelledNeverRan)} "
            + "acknowledgement_frames=\(acknowledgementFrames){answers=\(acknowledgedAnswers)} "
            + "files=\(files) files_delivered=\(filesDelivered) file_cancels=\(fileCancels) "
            + "lost=\(lost) duplicated=\(duplicated) late=\(late) fifo_violations=\(fifoViolations) "
            + "diverged_states=\(divergedStates) state_updates=\(stateUpdates) longest_user_info_queue=\(longestUserInfoQueue) "
            + "faults=\(totalFaults){\(faultText)}"
    }
}
