/// What a PIN must be: only digits, a length range, no long runs of one digit, optionally no
/// ascending or descending sequences, and none of a blocklist of the most common PINs.
public struct PINPolicy: Sendable, Hashable {
    /// The fewest digits.
    public var minimumLength: Int
    /// The most digits.
    public var maximumLength: Int
    /// The longest run of one digit allowed (`2` refuses `1114`).
    public var maximumRepeatedDigits: Int
    /// Whether sequences with a constant step (`12345`, `97531`, `24680`) are refused.
    public var refusesSequences: Bool
    /// PINs refused outright.
    public var blocklist: Set<String>

    /// A policy; by default 5 to 32 digits, runs of at most 2, sequences refused, the common PINs blocked.
    public init(
        minimumLength: Int = 5, maximumLength: Int = 32, maximumRepeatedDigits: Int = 2, refusesSequences: Bool = true,
        blocklist: Set<String> = CommonPINs.all
    ) {
        self.minimumLength = minimumLength
        self.maximumLength = maximumLength
        self.maximumRepeatedDigits = maximumRepeatedDigits
        self.refusesSequences = refusesSequences
        self.blocklist = blocklist
    }

    /// The default policy.
    public static let standard = PINPolicy()

    /// Throws ``IdentityError/Code/pinPolicy`` naming the first rule `pin` breaks; `field` is the field named.
    public func check(_ pin: String, field: String = "pin") throws(IdentityError) {
        let digits = Array(pin.utf8)
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            throw IdentityError(.pinPolicy, "a PIN has digits only", field: field)
        }
        guard digits.count >= minimumLength else {
            throw IdentityError(.pinPolicy, "a PIN has at least \(minimumLength) digits", field: field)
        }
        guard digits.count <= maximumLength else {
            throw IdentityError(.pinPolicy, "a PIN has at most \(maximumLength) digits", field: field)
        }
        var run = 1
        for index in digits.indices.dropFirst() {
            run = digits[index] == digits[index - 1] ? run + 1 : 1
            if run > maximumRepeatedDigits {
                throw IdentityError(
                    .pinPolicy, "a PIN repeats one digit at most \(maximumRepeatedDigits) times in a row", field: field)
            }
        }
        if refusesSequences, digits.count >= 3 {
            let step = Int(digits[1]) - Int(digits[0])
            if step != 0, digits.indices.dropFirst().allSatisfy({ Int(digits[$0]) - Int(digits[$0 - 1]) == step }) {
                throw IdentityError(.pinPolicy, "a PIN is not a sequence like 12345 or 97531", field: field)
            }
        }
        guard !blocklist.contains(pin) else {
            throw IdentityError(.pinPolicy, "this PIN is one of the most common; choose another", field: field)
        }
    }
}
