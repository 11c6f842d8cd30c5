import Foundation
import JWTKit
import Synchronization

/// Access tokens whose signature has been verified, with their claims: a client sends the same token
/// on every request until it expires, and a lookup costs far less than an Ed25519 verification.
///
/// Only the signature check is remembered (it depends on nothing but the token and the key); issuer,
/// audience, expiry and the session are still checked on every request. At most `capacity` tokens are kept.
final class VerifiedTokenCache: Sendable {
    let capacity: Int
    private let tokens = Mutex<[String: AccessClaims]>([:])

    init(capacity: Int) { self.capacity = capacity }

    /// The claims of a token verified before.
    func claims(of token: String) -> AccessClaims? {
        tokens.withLock { $0[token] }
    }

    /// Remembers a verified token; when full, first forgets expired tokens, and everything if none have expired.
    func insert(_ claims: AccessClaims, of token: String, now: Date) {
        tokens.withLock { tokens in
            if tokens.count >= capacity {
                tokens = tokens.filter { now < $0.value.exp.value }
                if tokens.count >= capacity { tokens.removeAll(keepingCapacity: true) }
            }
            tokens[token] = claims
        }
    }
}
