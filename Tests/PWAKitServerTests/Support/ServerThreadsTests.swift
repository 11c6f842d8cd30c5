import Testing

@testable import PWAKitServer

@Suite("Server threads")
struct ServerThreadsTests {
    @Test("CPU lists count every listed CPU and refuse malformed ones")
    func cpuLists() {
        #expect(ServerThreads.cpuCount(list: "0") == 1)
        #expect(ServerThreads.cpuCount(list: " 0-3,8,10-11") == 7)
        #expect(ServerThreads.cpuCount(list: "3-1") == nil)
        #expect(ServerThreads.cpuCount(list: "a") == nil)
        #expect(ServerThreads.cpuCount(list: "") == nil)
        #expect(ServerThreads.usableCoreCount >= 1)
    }
}
