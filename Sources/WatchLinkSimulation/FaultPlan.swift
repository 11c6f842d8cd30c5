import WatchLink

/// What the simulated network and devices do wrong, and how often.
package struct FaultPlan: Sendable, Hashable {
    /// Probability a transfer is lost.
    package var dropRate = 0.25
    /// Probability a transfer is delivered twice.
    package var duplicateRate = 0.05
    /// Probability a queued transfer swaps places with the next one.
    package var reorderRate = 0.05
    /// Probability a transfer is held back long enough to overtake others.
    package var delayRate = 0.05
    /// Normal one-way latency range, in milliseconds.
    package var latency: ClosedRange<Int64> = 1...20
    /// Latency of a delayed transfer, in milliseconds.
    package var longDelay: ClosedRange<Int64> = 200...4000
    /// Mean time between reachability flaps, in milliseconds (0 disables).
    package var flapInterval: Int64 = 20_000
    /// How long the link stays down in a flap, in milliseconds.
    package var flapDowntime: ClosedRange<Int64> = 200...5000
    /// Mean time between crashes of each device, in milliseconds (0 disables).
    package var crashInterval: Int64 = 60_000
    /// How long a crashed device stays down, in milliseconds.
    package var downtime: ClosedRange<Int64> = 100...2000
    /// Probability of a crash between any two effects a device performs.
    package var crashPointRate = 0.0005
    /// Probability of a crash after a handler's start mark is synced and before the handler is called.
    package var crashBeforeHandlerRate = 0.001
    /// Whether a re-send under the key of a user-info transfer still queued is dropped, leaving the
    /// queued copy as it is (what `WCSessionAdapter` does), instead of replacing its bytes.
    package var userInfoKeepsQueuedCopy = false

    /// The standard chaos plan: 25% drops, 5% duplicates, reordering, delays, flaps and crashes.
    package init() {}

    /// A plan without any faults.
    package static var none: FaultPlan {
        var plan = FaultPlan()
        plan.dropRate = 0
        plan.duplicateRate = 0
        plan.reorderRate = 0
        plan.delayRate = 0
        plan.flapInterval = 0
        plan.crashInterval = 0
        plan.crashPointRate = 0
        plan.crashBeforeHandlerRate = 0
        return plan
    }
}

/// The kinds of fault the simulation injects.
package enum FaultKind: String, Sendable, Hashable, CaseIterable, Comparable {
    /// A transfer was lost.
    case drop
    /// A transfer was delivered twice.
    case duplicate
    /// Two queued transfers swapped places.
    case reorder
    /// A transfer was held back.
    case delay
    /// The link went down for a while.
    case flap
    /// A device crashed at a random moment.
    case crash
    /// A device crashed between two of its own effects.
    case crashBetweenEffects = "crash_between_effects"
    /// A device crashed after syncing a handler's start mark and before calling the handler.
    case crashBeforeHandler = "crash_before_handler"

    /// Orders kinds by declaration.
    package static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
