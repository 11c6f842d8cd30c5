import Foundation

/// A QR code (ISO/IEC 18004, model 2) of some bytes: byte mode, error correction level M, the
/// smallest version from 1 to 15 that holds them, and the mask with the lowest penalty.
struct QRCode: Sendable {
    /// Modules per side.
    let size: Int
    /// `size × size` modules, row by row; true is dark.
    let modules: [Bool]
    /// The version chosen.
    let version: Int

    /// Whether the module at `x`, `y` is dark.
    func isDark(_ x: Int, _ y: Int) -> Bool { modules[y * size + x] }

    /// Too many bytes for version 15 at level M.
    struct TooLong: Error, CustomStringConvertible {
        let count: Int
        var description: String { "\(count) bytes do not fit a QR code of version 15 at level M (at most 412)" }
    }

    /// Encodes `bytes`.
    init(_ bytes: [UInt8]) throws {
        guard let version = (1...15).first(where: { Self.dataCapacity($0) * 8 >= Self.bitLength(bytes.count, version: $0) })
        else {
            throw TooLong(count: bytes.count)
        }
        self.version = version
        size = 17 + 4 * version
        var matrix = Matrix(size: size)
        matrix.drawFunctionPatterns(version: version)
        let codewords = Self.interleave(Self.dataCodewords(bytes, version: version), version: version)
        matrix.drawCodewords(codewords)
        var best: (penalty: Int, matrix: Matrix)?
        for mask in 0..<8 {
            var candidate = matrix
            candidate.applyMask(mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if best == nil || penalty < best!.penalty { best = (penalty, candidate) }
        }
        modules = best!.matrix.dark
    }

    // MARK: Data

    static let blocks: [(ec: Int, groups: [(count: Int, data: Int)])] = [
        (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]), (16, [(4, 27)]),
        (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]), (26, [(4, 43), (1, 44)]),
        (30, [(1, 50), (4, 51)]), (22, [(6, 36), (2, 37)]), (22, [(8, 37), (1, 38)]), (24, [(4, 40), (5, 41)]),
        (24, [(5, 41), (5, 42)]),
    ]

    static func dataCapacity(_ version: Int) -> Int {
        blocks[version - 1].groups.reduce(0) { $0 + $1.count * $1.data }
    }

    static func bitLength(_ count: Int, version: Int) -> Int { 4 + (version < 10 ? 8 : 16) + 8 * count }

    /// Mode, count, the bytes, a terminator and pad bytes, up to the version's data capacity.
    static func dataCodewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCapacity(version) * 8
        append(0, min(4, capacity - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var codewords = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while codewords.count < capacity / 8 {
            codewords.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return codewords
    }

    /// Splits the data into blocks, adds each block's Reed-Solomon codewords, and interleaves.
    static func interleave(_ data: [UInt8], version: Int) -> [UInt8] {
        let layout = blocks[version - 1]
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in layout.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let generator = ReedSolomon.generator(degree: layout.ec)
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, generator: generator) }
        var result: [UInt8] = []
        for index in 0..<(dataBlocks.map(\.count).max() ?? 0) {
            for block in dataBlocks where index < block.count { result.append(block[index]) }
        }
        for index in 0..<layout.ec {
            for block in ecBlocks { result.append(block[index]) }
        }
        return result
    }

    // MARK: Output

    /// An SVG drawing with a four-module quiet zone.
    func svg(moduleSize: Int = 6) -> String {
        let side = (size + 8) * moduleSize
        var path = ""
        for y in 0..<size {
            for x in 0..<size where isDark(x, y) {
                path += "M\((x + 4) * moduleSize) \((y + 4) * moduleSize)h\(moduleSize)v\(moduleSize)h-\(moduleSize)z"
            }
        }
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" width="\(side)" height="\(side)" \
            shape-rendering="crispEdges"><rect width="100%" height="100%" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
            """
    }

    /// A plain PBM (P1) image with a four-module quiet zone, `scale` pixels per module.
    func pbm(scale: Int = 4) -> String {
        let side = (size + 8) * scale
        var lines = ["P1", "\(side) \(side)"]
        for pixelY in 0..<side {
            var row: [String] = []
            for pixelX in 0..<side {
                let x = pixelX / scale - 4
                let y = pixelY / scale - 4
                row.append((0..<size).contains(x) && (0..<size).contains(y) && isDark(x, y) ? "1" : "0")
            }
            lines.append(row.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Reed-Solomon over GF(256) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    static let tables: (exp: [UInt8], log: [Int]) = {
        var exp = [UInt8](repeating: 0, count: 512)
        var log = [Int](repeating: 0, count: 256)
        var value = 1
        for power in 0..<255 {
            exp[power] = UInt8(value)
            log[value] = power
            value <<= 1
            if value & 0x100 != 0 { value ^= 0x11D }
        }
        for power in 255..<512 { exp[power] = exp[power - 255] }
        return (exp, log)
    }()

    static func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 {
        a == 0 || b == 0 ? 0 : tables.exp[tables.log[Int(a)] + tables.log[Int(b)]]
    }

    /// The product of (x − αⁱ) for i in 0..<degree, highest power first (its leading 1 left out).
    static func generator(degree: Int) -> [UInt8] {
        var coefficients: [UInt8] = [1]
        for power in 0..<degree {
            var next = [UInt8](repeating: 0, count: coefficients.count + 1)
            for (index, coefficient) in coefficients.enumerated() {
                next[index] ^= coefficient
                next[index + 1] ^= multiply(coefficient, tables.exp[power])
            }
            coefficients = next
        }
        return Array(coefficients.dropFirst())
    }

    /// The remainder of data·x^degree divided by the generator: the error-correction codewords.
    static func remainder(_ data: [UInt8], generator: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: generator.count)
        for byte in data {
            let factor = byte ^ result[0]
            result.removeFirst()
            result.append(0)
            for index in generator.indices { result[index] ^= multiply(generator[index], factor) }
        }
        return result
    }
}

/// The module grid while a code is drawn: which modules are dark, and which belong to function patterns.
private struct Matrix {
    let size: Int
    var dark: [Bool]
    var function: [Bool]

    init(size: Int) {
        self.size = size
        dark = Array(repeating: false, count: size * size)
        function = Array(repeating: false, count: size * size)
    }

    mutating func set(_ x: Int, _ y: Int, _ isDark: Bool) {
        dark[y * size + x] = isDark
        function[y * size + x] = true
    }

    static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
        [6, 30, 54], [6, 32, 58], [6, 34, 62], [6, 26, 46, 66], [6, 26, 48, 70],
    ]

    mutating func drawFunctionPatterns(version: Int) {
        for index in 0..<size {
            set(6, index, index % 2 == 0)
            set(index, 6, index % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 {
                    let (px, py) = (x + dx, y + dy)
                    guard (0..<size).contains(px), (0..<size).contains(py) else { continue }
                    let distance = max(abs(dx), abs(dy))
                    set(px, py, distance != 2 && distance != 4)
                }
            }
        }
        let centres = Self.alignment[version - 1]
        for cy in centres {
            for cx in centres {
                let nearFinder = (cx == 6 && cy == 6) || (cx == 6 && cy == centres.last!) || (cx == centres.last! && cy == 6)
                guard !nearFinder else { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        // Reserve the format areas (drawn per mask) and the dark module.
        drawFormatBits(mask: 0)
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for index in 0..<18 {
                let bit = (bits >> index) & 1 == 1
                let a = size - 11 + index % 3
                let b = index / 3
                set(a, b, bit)
                set(b, a, bit)
            }
        }
    }

    /// The 15 format bits (level M, `mask`) in both copies, and the dark module.
    mutating func drawFormatBits(mask: Int) {
        let data = 0b00 << 3 | mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ index: Int) -> Bool { (bits >> index) & 1 == 1 }
        for index in 0...5 { set(8, index, bit(index)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for index in 9..<15 { set(14 - index, 8, bit(index)) }
        for index in 0..<8 { set(size - 1 - index, 8, bit(index)) }
        for index in 8..<15 { set(8, size - 15 + index, bit(index)) }
        set(8, size - 8, true)
    }

    /// Places the codewords in the zig-zag order, two columns at a time from the right.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var bitIndex = 0
        let totalBits = codewords.count * 8
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for column in 0..<2 {
                    let x = right - column
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !function[y * size + x] else { continue }
                    if bitIndex < totalBits {
                        dark[y * size + x] = (codewords[bitIndex >> 3] >> (7 - UInt8(bitIndex & 7))) & 1 == 1
                        bitIndex += 1
                    }
                }
            }
            right -= 2
        }
    }

    mutating func applyMask(_ mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !function[y * size + x] {
                let invert: Bool
                switch mask {
                case 0: invert = (x + y) % 2 == 0
                case 1: invert = y % 2 == 0
                case 2: invert = x % 3 == 0
                case 3: invert = (x + y) % 3 == 0
                case 4: invert = (x / 3 + y / 2) % 2 == 0
                case 5: invert = x * y % 2 + x * y % 3 == 0
                case 6: invert = (x * y % 2 + x * y % 3) % 2 == 0
                default: invert = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if invert { dark[y * size + x].toggle() }
            }
        }
    }

    /// The standard's penalty: runs of five or more, 2×2 blocks, finder-like patterns, dark balance.
    func penalty() -> Int {
        var total = 0
        func at(_ x: Int, _ y: Int) -> Bool { dark[y * size + x] }
        for line in 0..<size {
            for horizontal in [true, false] {
                var run = 1
                var bits: [Bool] = []
                for index in 0..<size {
                    let value = horizontal ? at(index, line) : at(line, index)
                    bits.append(value)
                    if index > 0 {
                        let previous = horizontal ? at(index - 1, line) : at(line, index - 1)
                        if value == previous {
                            run += 1
                        } else {
                            if run >= 5 { total += run - 2 }
                            run = 1
                        }
                    }
                }
                if run >= 5 { total += run - 2 }
                let patterns: [[Bool]] = [
                    [true, false, true, true, true, false, true, false, false, false, false],
                    [false, false, false, false, true, false, true, true, true, false, true],
                ]
                if bits.count >= 11 {
                    for start in 0...(bits.count - 11) {
                        for pattern in patterns where Array(bits[start..<start + 11]) == pattern { total += 40 }
                    }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let value = at(x, y)
                if value == at(x + 1, y), value == at(x, y + 1), value == at(x + 1, y + 1) { total += 3 }
            }
        }
        let darkCount = dark.filter { $0 }.count
        let percent = darkCount * 100 / (size * size)
        total += abs(percent - 50) / 5 * 10
        return total
    }
}
