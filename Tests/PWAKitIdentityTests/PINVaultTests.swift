import Crypto
import Foundation
import PWAKitEncoding
import PWAKitIdentity
import Testing

@Suite("PIN policy and the PIN-wrapped user key")
struct PINVaultTests {
    @Test(
        "the policy refuses, naming the rule",
        arguments: [
            ("", "at least 5"), ("1234", "at least 5"), ("12a45", "digits only"), ("１２３４５", "digits only"),
            ("27 491", "digits only"), ("-2749", "digits only"), (String(repeating: "29", count: 17), "at most 32"),
            ("27771", "repeats"), ("00000", "repeats"), ("12345", "sequence"), ("97531", "sequence"), ("02468", "sequence"),
            ("24680", "most common"),
            ("121212", "most common"), ("123123", "most common"), ("147258", "most common"), ("8675309", "most common"),
        ])
    func refused(pin: String, rule: String) {
        let error = #expect(throws: IdentityError.self) { try PINPolicy.standard.check(pin) }
        #expect(error?.code == .pinPolicy)
        #expect(error?.field == "pin")
        #expect(error?.message.contains(rule) == true, "\(pin): \(error?.message ?? "")")
    }

    @Test("the policy accepts ordinary PINs", arguments: ["27491", "80417", "305962", "1357924680", "90210517"])
    func accepted(pin: String) throws {
        try PINPolicy.standard.check(pin)
    }

    @Test("the blocklist holds every repeated two- and three-digit block of 5 to 8 digits")
    func blocklist() {
        #expect(CommonPINs.all.contains("45454"))
        #expect(CommonPINs.all.contains("98798798"))
        #expect(CommonPINs.all.count > 4_000)
        #expect(!CommonPINs.all.contains("27491"))
    }

    @Test("the right PIN unwraps the key it wrapped; a stored key that was tampered with is refused by its shape only")
    func roundTrip() throws {
        let secret = [UInt8](repeating: 7, count: 32)
        let cost = PINCost(n: 16, r: 8, p: 1)
        let (key, stored) = try PINVault.wrapNew(pin: "27491", deviceSecret: secret, cost: cost, pinVersion: 1)
        #expect(try PINVault.unwrap(stored, pin: "27491", deviceSecret: secret).rawRepresentation == key.rawRepresentation)
        // The device secret takes part: the right PIN on another device's secret is another key.
        let elsewhere = try PINVault.unwrap(stored, pin: "27491", deviceSecret: [UInt8](repeating: 8, count: 32))
        #expect(elsewhere.rawRepresentation != key.rawRepresentation)
        var damaged = stored
        damaged.masked = "AAAA"
        #expect(throws: IdentityError.self) { try PINVault.unwrap(damaged, pin: "27491", deviceSecret: secret) }
        var costly = stored
        costly.cost = PINCost(n: 3, r: 8, p: 1)
        #expect(throws: IdentityError.self) { try PINVault.unwrap(costly, pin: "27491", deviceSecret: secret) }
    }

    @Test(
        "all 10^6 six-digit PINs tried offline against the stored key unwrap without an error to distinct keys; only the right one is right"
    )
    func noOracle() async throws {
        let secret = (0..<32).map { UInt8($0) }
        // NB: the cheapest scrypt cost, so a million tries fit in a test; the property does not depend on the cost.
        let cost = PINCost(n: 2, r: 1, p: 1)
        let (key, stored) = try PINVault.wrapNew(pin: "305962", deviceSecret: secret, cost: cost, pinVersion: 1)
        let right = Array(key.rawRepresentation)
        let results = try await withThrowingTaskGroup(of: (matches: [Int], prefixes: Set<UInt32>).self) { group in
            let workers = 2
            for worker in 0..<workers {
                group.addTask {
                    var matches: [Int] = []
                    var prefixes = Set<UInt32>()
                    var candidate = worker
                    while candidate < 1_000_000 {
                        var pin = String(candidate)
                        while pin.count < 6 { pin = "0" + pin }
                        let seed = try PINVault.unwrapSeed(stored, pin: pin, deviceSecret: secret)
                        if seed == right { matches.append(candidate) }
                        prefixes.insert(UInt32(seed[0]) << 24 | UInt32(seed[1]) << 16 | UInt32(seed[2]) << 8 | UInt32(seed[3]))
                        candidate += workers
                    }
                    return (matches, prefixes)
                }
            }
            return try await group.reduce(into: (matches: [Int](), prefixes: Set<UInt32>())) {
                $0.matches += $1.matches
                $0.prefixes.formUnion($1.prefixes)
            }
        }
        #expect(results.matches == [305_962])
        // A million 32-bit prefixes of random keys collide about 116 times; a marker would collapse them.
        #expect(results.prefixes.count > 999_500)
        // Every seed is a key: construction does not look at the bytes (a sample, as it costs a scalar multiplication).
        for pin in stride(from: 0, to: 1_000_000, by: 997) {
            _ = try PINVault.unwrap(stored, pin: String(pin), deviceSecret: secret)
        }
    }
}
