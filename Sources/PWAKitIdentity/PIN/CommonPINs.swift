/// PINs people choose far more often than chance: keypad shapes, well-known numbers, and any PIN
/// that repeats a block of two or three digits (`121212`, `123123`, `45454`). Runs of one digit and
/// constant-step sequences are refused by ``PINPolicy`` itself.
public enum CommonPINs {
    /// Every PIN of the blocklist.
    public static let all: Set<String> = {
        var pins = Set(named)
        for blockLength in 2...3 {
            var upper = 1
            for _ in 0..<blockLength { upper *= 10 }
            for value in 0..<upper {
                var block = String(value)
                while block.count < blockLength { block = "0" + block }
                let repeated = String(repeating: block, count: 32 / blockLength + 1)
                for length in 5...8 { pins.insert(String(repeated.prefix(length))) }
            }
        }
        return pins
    }()

    /// Keypad shapes and well-known numbers of 5 to 9 digits.
    static let named = [
        "12321", "11223", "11122", "12211", "13579", "97531", "24680", "86420", "14725", "25836", "36925", "15975",
        "75395", "78945", "45612", "32145", "12369", "14789", "112233", "123321", "654321", "159753", "147258",
        "258369", "789456", "456123", "147852", "741852", "963852", "852963", "369258", "123654", "321654",
        "102030", "010203", "112211", "122112", "100100", "101010", "202020", "696969", "131313", "007007", "987654",
        "1234567", "7654321", "1472583", "1593570", "12344321", "11223344", "12341234", "87654321", "19283746",
        "147258369", "159357456", "123698745", "741852963", "963852741", "789456123", "258025802", "86753090",
        "8675309", "31415", "314159", "3141592", "27182", "271828", "90210", "60606", "24365", "12358", "112358",
    ]
}
