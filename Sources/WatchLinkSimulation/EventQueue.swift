import WatchLink

/// A min-heap of timed closures, ordered by time and then by insertion, so runs are deterministic.
struct EventQueue {
    private struct Item {
        let time: Int64
        let order: UInt64
        let run: () -> Void
    }

    private var heap: [Item] = []
    private var counter: UInt64 = 0

    var isEmpty: Bool { heap.isEmpty }
    var count: Int { heap.count }
    var nextTime: Int64? { heap.first?.time }

    mutating func push(at time: Int64, _ run: @escaping () -> Void) {
        counter += 1
        heap.append(Item(time: time, order: counter, run: run))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(heap[child], heap[parent]) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> (time: Int64, run: () -> Void)? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let item = heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count && less(heap[left], heap[smallest]) { smallest = left }
            if right < heap.count && less(heap[right], heap[smallest]) { smallest = right }
            if smallest == parent { break }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
        return (item.time, item.run)
    }

    private func less(_ a: Item, _ b: Item) -> Bool {
        a.time != b.time ? a.time < b.time : a.order < b.order
    }
}
