import Crypto
import Foundation
import HTTPTypes
import NIOPosix
import _CryptoExtras

/// Hashes and verifies passwords with scrypt. Encoded form: `scrypt$N$r$p$salt$hash` (base64 parts).
struct PasswordHasher: Sendable {
    let parameters: ScryptParameters
    /// Where hashing runs (its own threads, a bounded queue).
    let pool: HashingPool

    init(parameters: ScryptParameters, pool: HashingPool = HashingPool(limit: 64)) {
        self.parameters = parameters
        self.pool = pool
    }

    func hash(_ password: String, salt: [UInt8]) throws -> String {
        let derived = try derive(password, salt: salt, parameters: parameters)
        return [
            "scrypt", "\(parameters.n)", "\(parameters.r)", "\(parameters.p)", Data(salt).base64EncodedString(),
            derived.base64EncodedString(),
        ]
        .joined(separator: "$")
    }

    /// Whether `password` matches `encoded`; malformed encodings never match.
    func verify(_ password: String, encoded: String) -> Bool {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt", let n = Int(parts[1]), let r = Int(parts[2]), let p = Int(parts[3]),
            n > 1, n <= 1 << 20, r > 0, r <= 32, p > 0, p <= 16,
            let salt = Data(base64Encoded: String(parts[4])), let expected = Data(base64Encoded: String(parts[5]))
        else { return false }
        guard let actual = try? derive(password, salt: Array(salt), parameters: ScryptParameters(n: n, r: r, p: p)) else {
            return false
        }
        return Self.constantTimeEqual(Array(actual), Array(expected))
    }

    private func derive(_ password: String, salt: [UInt8], parameters: ScryptParameters) throws -> Data {
        let key = try KDF.Scrypt.deriveKey(
            from: Array(password.utf8), salt: salt, outputByteCount: 32,
            rounds: parameters.n, blockSize: parameters.r, parallelism: parameters.p,
            maxMemory: 128 * parameters.r * parameters.n * parameters.p + 64 * 1024 * 1024
        )
        return key.withUnsafeBytes { Data($0) }
    }

    /// ``hash(_:salt:)`` on the hashing threads (``HashingPool``), never the pool the database uses. NB: scrypt takes tens of milliseconds of CPU,
    /// which must not hold up the event loop that also runs request handlers.
    func hashOffLoop(_ password: String, salt: [UInt8]) async throws -> String {
        try await pool.run { try hash(password, salt: salt) }
    }

    /// ``verify(_:encoded:)`` on the hashing threads.
    func verifyOffLoop(_ password: String, encoded: String) async throws -> Bool {
        try await pool.run { verify(password, encoded: encoded) }
    }

    /// Whether `encoded` was made with other parameters than this hasher's (weaker or different):
    /// a login that verified it should store a new hash.
    func needsRehash(_ encoded: String) -> Bool {
        let parts = encoded.split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 6, parts[0] == "scrypt" else { return true }
        return parts[1] != "\(parameters.n)" || parts[2] != "\(parameters.r)" || parts[3] != "\(parameters.p)"
    }

    static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for index in lhs.indices { difference |= lhs[index] ^ rhs[index] }
        return difference == 0
    }
}
