import Foundation
import Synchronization
import Testing

@testable import WatchLink

@Suite struct SessionBridgeTests {
    /// The data in `inputs`, as strings.
    static func texts(_ inputs: [SessionInput]) -> [String] {
        inputs.map { input in
            if case .data(let data, _) = input { String(decoding: data, as: UTF8.self) } else { "?" }
        }
    }

    /// A drain swaps out every input so far, oldest first, and leaves an empty buffer with the
    /// caller's storage; the next drain gets only what came after, and the first input after a
    /// drain asks for one more pump, once.
    @Test func drainsSwapOutEveryInputInOrderAndAskForThePumpOnce() {
        let wakes = Atomic<Int>(0)
        let bridge = SessionBridge(inbox: nil, callsBackInline: true) { wakes.add(1, ordering: .relaxed) }
        for n in 0..<5 { bridge.sessionDidReceive(Data("a\(n)".utf8), on: .message) }
        #expect(wakes.load(ordering: .relaxed) == 1)
        var kept: [SessionInput] = []
        kept.reserveCapacity(16)
        var inputs: [SessionInput] = []
        swap(&inputs, &kept)
        bridge.drain(into: &inputs)
        #expect(Self.texts(inputs) == ["a0", "a1", "a2", "a3", "a4"])
        inputs.removeAll(keepingCapacity: true)
        swap(&inputs, &kept)
        for n in 0..<3 { bridge.sessionDidReceive(Data("b\(n)".utf8), on: .userInfo) }
        #expect(wakes.load(ordering: .relaxed) == 2)
        swap(&inputs, &kept)
        bridge.drain(into: &inputs)
        #expect(Self.texts(inputs) == ["b0", "b1", "b2"])
        var empty: [SessionInput] = []
        bridge.drain(into: &empty)
        #expect(empty.isEmpty)
    }
}
