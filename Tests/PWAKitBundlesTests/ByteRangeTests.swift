import PWAKitBundles
import Testing

@Suite("Byte ranges")
struct ByteRangeTests {
    @Test("parse single ranges, suffixes and open ranges; ignore the rest")
    func parsing() {
        #expect(probe(nil, size: 10) == "whole")
        #expect(probe("bytes=0-4", size: 10) == "0-4")
        #expect(probe("bytes=0-0", size: 10) == "0-0")
        #expect(probe(" bytes= 2 - 4 ", size: 10) == "2-4")
        #expect(probe("bytes=5-", size: 10) == "5-9")
        #expect(probe("bytes=-3", size: 10) == "7-9")
        #expect(probe("bytes=-30", size: 10) == "0-9")
        #expect(probe("bytes=8-100", size: 10) == "8-9")
        #expect(probe("bytes=10-", size: 10) == "unsatisfiable")
        #expect(probe("bytes=-0", size: 10) == "unsatisfiable")
        #expect(probe("bytes=0-", size: 0) == "unsatisfiable")
        #expect(probe("bytes=0-1,3-4", size: 10) == "whole")
        #expect(probe("bytes=4-2", size: 10) == "whole")
        #expect(probe("items=0-1", size: 10) == "whole")
        #expect(probe("bytes=99999999999999999999-", size: 10) == "whole")
    }

    private func probe(_ header: String?, size: Int) -> String {
        switch ByteRange.parse(header, size: size) {
        case .whole: "whole"
        case .partial(let range): "\(range.lowerBound)-\(range.upperBound)"
        case .unsatisfiable: "unsatisfiable"
        }
    }
}
