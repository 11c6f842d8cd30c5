import Foundation
import Testing

@testable import WatchLink

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The socket's frame reader: many frames per read, frames split anywhere, hostile lengths")
struct FrameReaderTests {
    static func pair() -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    static func frame(_ kind: UInt8, _ body: [UInt8]) -> [UInt8] {
        let n = UInt32(body.count + 1)
        return [UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF), kind] + body
    }

    @Test("a hundred frames written at once come out whole and in order, then the end")
    func manyFramesPerRead() {
        let (a, b) = Self.pair()
        defer { close(b) }
        let frames = (0..<100).map { Self.frame(UInt8($0 % 13), [UInt8](repeating: UInt8($0), count: $0 * 37 % 700)) }
        #expect(SocketIO.writeAll(a, frames.flatMap { $0 }))
        close(a)
        var reader = FrameReader(fd: b, maximumLength: 1 << 20)
        for n in 0..<100 {
            let frame = reader.next()
            #expect(frame?.kind == UInt8(n % 13))
            #expect(frame?.body == [UInt8](repeating: UInt8(n), count: n * 37 % 700))
        }
        #expect(reader.next() == nil)
    }

    @Test("frames split into single bytes, and one larger than a read, come out whole")
    func splitAnywhere() async {
        let (a, b) = Self.pair()
        defer { close(b) }
        let big = [UInt8]((0..<100_000).map { UInt8(truncatingIfNeeded: $0) })
        let bytes = Self.frame(1, [1, 2, 3]) + Self.frame(2, []) + Self.frame(3, big)
        let writer = Thread {
            for byte in bytes.prefix(20) {
                _ = SocketIO.writeAll(a, [byte])
                usleep(200)
            }
            _ = SocketIO.writeAll(a, Array(bytes.dropFirst(20)))
            close(a)
        }
        writer.start()
        var reader = FrameReader(fd: b, maximumLength: 1 << 20)
        #expect(reader.next().map { [$0.kind] + $0.body } == [1, 1, 2, 3])
        #expect(reader.next().map { [$0.kind] + $0.body } == [2])
        let last = reader.next()
        #expect(last?.kind == 3 && last?.body == big)
        #expect(reader.next() == nil)
    }

    @Test(
        "reads that end inside frames, with a small chunk, move the unread bytes to the front and lose none",
        arguments: [1, 7, 64, 300])
    func readsEndingInsideFrames(chunk: Int) {
        let (a, b) = Self.pair()
        defer { close(b) }
        let frames = (0..<200).map { Self.frame(UInt8($0 % 7), [UInt8](repeating: UInt8($0), count: $0 * 53 % 400)) }
        let writer = Thread {
            _ = SocketIO.writeAll(a, frames.flatMap { $0 })
            close(a)
        }
        writer.start()
        var reader = FrameReader(fd: b, maximumLength: 1 << 20, chunk: chunk)
        for n in 0..<200 {
            let frame = reader.next()
            #expect(frame?.kind == UInt8(n % 7), "frame \(n)")
            #expect(frame?.body == [UInt8](repeating: UInt8(n), count: n * 53 % 400), "frame \(n)")
        }
        #expect(reader.next() == nil)
    }

    @Test("a reader with a chunk of 1 takes no byte past the frame it returns")
    func chunkOfOneReadsNoFurther() {
        let (a, b) = Self.pair()
        defer {
            close(a)
            close(b)
        }
        #expect(SocketIO.writeAll(a, Self.frame(1, [1, 2, 3]) + Self.frame(2, [4, 5])))
        var first = FrameReader(fd: b, maximumLength: 1024, chunk: 1)
        #expect(first.next() == FrameReader.Frame(kind: 1, body: [1, 2, 3]))
        #expect(!first.hasBuffered)
        var second = FrameReader(fd: b, maximumLength: 1024, chunk: 1)
        #expect(second.next() == FrameReader.Frame(kind: 2, body: [4, 5]))
    }

    @Test("a length of zero, one over the limit, or a stream that ends inside a frame ends the reading")
    func hostileLengths() {
        for bytes: [UInt8] in [
            [0, 0, 0, 0, 1], [0, 0, 4, 1, 1] + [UInt8](repeating: 0, count: 1025), [0, 0, 0, 9, 1, 2, 3], [0, 0],
            [0xFF, 0xFF, 0xFF, 0xFF, 1],
        ] {
            let (a, b) = Self.pair()
            #expect(SocketIO.writeAll(a, bytes))
            close(a)
            var reader = FrameReader(fd: b, maximumLength: 1024)
            #expect(reader.next() == nil, "\(bytes.prefix(6))")
            close(b)
        }
    }
}

extension FrameReader.Frame: Equatable {
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.kind == rhs.kind && lhs.body == rhs.body }
}
