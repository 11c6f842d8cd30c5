import PWAKitCore
import PWAKitHost
import Testing

/// The page-load state machine every host drives, without WebKit: messages wait while a page load
/// opens, nothing of one document reaches the next, pushes wait for their page.
@Suite struct PageLoadStateTests {
    let first = PageLoadID(rawValue: 1)
    let second = PageLoadID(rawValue: 2)
    let push = BridgeEvent(type: "push", data: ["n": 1])

    @Test func messagesWaitWhileThePageOpensThenGoInOrder() throws {
        var state = PageLoadState<String>()
        guard case .refuse = state.receive("before any document") else { Issue.record("accepted"); return }
        let (generation, ended) = state.commit(bridged: true)
        #expect(generation == 1 && ended.refused.isEmpty && ended.closed == nil)
        guard case .queued = state.receive("a"), case .queued = state.receive("b") else { Issue.record("not queued"); return }
        #expect(!state.isCurrent(generation))
        let result = state.opened(first, generation: generation)
        let opened = try #require(result)
        #expect(opened.queued == ["a", "b"])
        guard case .dispatch(let page) = state.receive("c") else { Issue.record("not dispatched"); return }
        #expect(page == first)
        #expect(state.isCurrent(generation) && state.openPage == first && state.isBridged)
    }

    @Test func aCommitEndsThePreviousLoadAndItsLateOpeningIsClosed() {
        var state = PageLoadState<String>()
        let (old, _) = state.commit(bridged: true)
        _ = state.receive("waiting")
        // The next document commits before the first load finished opening.
        let (new, ended) = state.commit(bridged: true)
        #expect(ended.refused == ["waiting"])
        let late = state.opened(first, generation: old)
        #expect(late == nil, "the late opening is refused: close it")
        let current = state.opened(second, generation: new)
        #expect(current != nil)
        // Output made for the old load is no longer current.
        #expect(!state.isCurrent(old) && state.isCurrent(new))
        let (_, leaving) = state.commit(bridged: false)
        #expect(leaving.closed == second)
        #expect(!state.isBridged && state.openPage == nil)
        guard case .refuse = state.receive("x") else { Issue.record("a document without the bridge accepted a message"); return }
    }

    @Test func pushesWaitForTheirPageAndGoBackWhenItIsGone() throws {
        var state = PageLoadState<String>()
        let (generation, _) = state.commit(bridged: true)
        guard case .held = state.push(push, generation: generation) else { Issue.record("not held"); return }
        let result = state.opened(first, generation: generation)
        let opened = try #require(result)
        #expect(opened.pushes == [push])
        guard case .show = state.push(push, generation: generation) else { Issue.record("not shown"); return }
        guard case .requeue = state.push(push, generation: generation - 1) else { Issue.record("a stale push shown"); return }
        // Held pushes of a document that goes away return to the relay, in order.
        let (next, _) = state.commit(bridged: true)
        _ = state.push(BridgeEvent(type: "push", data: ["n": 2]), generation: next)
        _ = state.push(BridgeEvent(type: "push", data: ["n": 3]), generation: next)
        let (_, ended) = state.commit(bridged: true)
        #expect(ended.returnedPushes.map { $0.data?["n"] } == [2, 3])
        #expect(state.heldPushes.isEmpty)
    }
}
