import Foundation
import Synchronization
import Testing

@testable import WatchLink

/// The in-process pair keeps WatchConnectivity's channel semantics across link outages and
/// activation: user info in order, the latest context only, live messages never queued.
@Suite struct InMemorySessionTests {
    typealias Recorder = SocketSessionTests.Recorder

    static func text(_ items: [(SessionChannel, Data)]) -> [String] {
        items.map {
            "\($0.0 == .userInfo ? "info" : $0.0 == .message ? "message" : "context"):\(String(decoding: $0.1, as: UTF8.self))"
        }
    }

    @Test func whatWasQueuedWhileTheLinkWasDownArrivesInOrderWhenItComesBack() throws {
        let (phone, watch) = InMemorySession.makePair()
        let received = Recorder()
        phone.activate(delegate: Recorder())
        watch.activate(delegate: received)
        try phone.transferUserInfo(Data("a".utf8))
        phone.setLinkUp(false)
        #expect(!phone.isReachable && received.reachable.withLock { !$0 })
        try phone.transferUserInfo(Data("b".utf8))
        try phone.transferUserInfo(Data("c".utf8))
        try phone.updateApplicationContext(Data("old".utf8))
        try phone.updateApplicationContext(Data("new".utf8))
        #expect(throws: WatchLinkError.self) { try phone.sendMessage(Data("live".utf8)) }
        #expect(Self.text(received.items) == ["info:a"])
        // The receiver is there; only the link is missing.
        #expect(watch.receivedApplicationContext == Data("new".utf8))

        phone.setLinkUp(true)
        try phone.transferUserInfo(Data("d".utf8))
        try phone.sendMessage(Data("live".utf8))
        #expect(Self.text(received.items) == ["info:a", "info:b", "info:c", "context:new", "info:d", "message:live"])
        #expect(received.reachable.withLock { $0 })
    }

    @Test func aResendUnderTheSameKeyTakesTheQueuedCopysPlace() throws {
        let (phone, watch) = InMemorySession.makePair()
        let received = Recorder()
        phone.activate(delegate: Recorder())
        watch.activate(delegate: received)
        phone.setLinkUp(false)
        let key = UUID()
        try phone.transferUserInfo(Data("r0".utf8), replacingQueued: key)
        try phone.transferUserInfo(Data("x".utf8))
        try phone.transferUserInfo(Data("r1".utf8), replacingQueued: key)
        try phone.transferUserInfo(Data("other".utf8), replacingQueued: UUID())
        phone.setLinkUp(true)
        #expect(Self.text(received.items) == ["info:r1", "info:x", "info:other"])
        // Delivered: the same key queues anew.
        try phone.transferUserInfo(Data("r2".utf8), replacingQueued: key)
        #expect(Self.text(received.items).last == "info:r2")
    }

    @Test func aCounterpartThatActivatesWhileTheLinkIsDownGetsNothingUntilItComesBack() throws {
        let (phone, watch) = InMemorySession.makePair()
        phone.activate(delegate: Recorder())
        try phone.transferUserInfo(Data("1".utf8))
        try phone.updateApplicationContext(Data("ctx".utf8))
        phone.setLinkUp(false)
        let received = Recorder()
        watch.activate(delegate: received)
        try phone.transferUserInfo(Data("2".utf8))
        #expect(received.items.isEmpty)
        phone.setLinkUp(true)
        #expect(Self.text(received.items) == ["info:1", "info:2", "context:ctx"])
        // Delivered once: another outage sends nothing again.
        phone.setLinkUp(false)
        phone.setLinkUp(true)
        #expect(received.items.count == 3)
    }
}
