import PWAKitAPI
import Testing

@testable import PWAKitCore

/// The configuration validator restates the flag-name rule (PWAKitCore does not depend on
/// PWAKitAPI, where the server and devices keep it); the two must agree.
@Suite("The flag-name rule")
struct FlagNameRuleTests {
    @Test("the configuration's rule is the server's and the device's, on edge cases and random names")
    func rulesAgree() {
        var random = SystemRandomNumberGenerator()
        let alphabet = Array("abzAZ09_.-é /")
        var names = [
            "", "a", "A", "1a", "a1", "_a", "a_b.c", ".a", String(repeating: "a", count: 64), String(repeating: "a", count: 65),
        ]
        for _ in 0..<5000 {
            names.append(String((0..<Int.random(in: 0...6, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        for name in names { #expect(ConfigurationValidator.isFlagKey(name) == FlagRules.isKey(name), "\(name)") }
    }
}
