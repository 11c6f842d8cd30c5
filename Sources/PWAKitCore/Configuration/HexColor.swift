/// An opaque sRGB colour written `#RRGGBB`, as `pwa-config.json` requires.
public struct HexColor: Codable, Sendable, Hashable, CustomStringConvertible {
    /// The red component, 0–255.
    public let red: UInt8
    /// The green component, 0–255.
    public let green: UInt8
    /// The blue component, 0–255.
    public let blue: UInt8

    /// Creates a colour from its components.
    public init(red: UInt8, green: UInt8, blue: UInt8) {
        self.red = red
        self.green = green
        self.blue = blue
    }

    /// Parses exactly `#RRGGBB` (hex digits in either case); nil otherwise.
    public init?(strict text: String) {
        let digits = Array(text.unicodeScalars)
        guard digits.count == 7, digits[0] == "#" else { return nil }
        guard let value = Self.hexValue(digits[1...]) else { return nil }
        self.init(red: UInt8(value >> 16 & 0xFF), green: UInt8(value >> 8 & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// Parses `#RRGGBB` or the CSS shorthand `#RGB` (`#abc` is `#AABBCC`), as web app
    /// manifests may write; nil for anything else (names, `rgb()`, alpha).
    public init?(lenient text: String) {
        let trimmed = text.trimmingASCIISpaces()
        let scalars = Array(trimmed.unicodeScalars)
        if scalars.count == 4, scalars[0] == "#" {
            var expanded = "#"
            for scalar in scalars.dropFirst() { expanded += String(repeating: String(scalar), count: 2) }
            self.init(strict: expanded)
        } else {
            self.init(strict: trimmed)
        }
    }

    /// Decodes a `#RRGGBB` string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let color = HexColor(strict: text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not a colour of the form #RRGGBB")
        }
        self = color
    }

    /// Encodes the colour as `#RRGGBB`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// `#RRGGBB` in upper case.
    public var description: String {
        "#"
            + [red, green, blue].map { byte in
                let digits = String(byte, radix: 16, uppercase: true)
                return digits.count == 1 ? "0" + digits : digits
            }.joined()
    }

    private static func hexValue(_ scalars: ArraySlice<Unicode.Scalar>) -> UInt32? {
        var value: UInt32 = 0
        for scalar in scalars {
            guard scalar.isASCIIHexDigit, let digit = UInt32(String(scalar), radix: 16) else { return nil }
            value = value << 4 | digit
        }
        return value
    }
}
