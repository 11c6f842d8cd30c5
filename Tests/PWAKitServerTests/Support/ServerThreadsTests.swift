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

@Suite("HTTP dates")
struct HTTPDateTests {
    @Test("IMF-fixdate, as RFC 9110 writes it")
    func format() {
        #expect(HTTPDate.format(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.format(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDate.format(secondsSince1970: 1_795_398_399) == "Mon, 23 Nov 2026 01:46:39 GMT")
        #expect(HTTPDate.format(secondsSince1970: -1) == "Wed, 31 Dec 1969 23:59:59 GMT")
    }
}
