import Crypto
import Foundation

/// The one bucketing of users for percentage rollouts, shared by releases and feature flags, on
/// the server and on devices: a user's bucket for a subject is the first four bytes of
/// SHA-256(`<userId>|<subject>`) as a big-endian integer, modulo 100. The same user and subject
/// always land in the same bucket, on every platform; raising a percentage only adds users.
public enum RolloutBucket {
    /// The bucket in 0..<100 of `userId` for `subject` (a release's `app|channel|version`, a flag's
    /// `flag|<app>|<key>`).
    public static func bucket(userId: String, subject: String) -> Int {
        let digest = Array(SHA256.hash(data: Data("\(userId)|\(subject)".utf8)))
        let value = (UInt32(digest[0]) << 24) | (UInt32(digest[1]) << 16) | (UInt32(digest[2]) << 8) | UInt32(digest[3])
        return Int(value % 100)
    }

    /// Whether `userId` is among the first `percent` of users for `subject` (100 includes everyone,
    /// 0 no one).
    public static func includes(userId: String, subject: String, percent: Int) -> Bool {
        if percent >= 100 { return true }
        if percent <= 0 { return false }
        return bucket(userId: userId, subject: subject) < percent
    }
}
