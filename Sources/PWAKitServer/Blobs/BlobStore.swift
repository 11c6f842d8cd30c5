import Foundation
import HTTPTypes
public import Hummingbird

/// Content-addressed, immutable storage of bundle files, keyed by lowercase hex SHA-256.
///
/// The file-system implementation serves one machine or a shared file system; an object store
/// implements the same protocol for several replicas.
public protocol BlobStore: Sendable {
    /// The size of a stored blob, or `nil` when it is absent.
    func size(of hash: String) async throws -> Int?
    /// Streams a body into the store, hashing it on the way; the blob becomes visible only when
    /// the bytes hash to `hash` and number at most `maximumSize`. Returns `false` when it was already stored.
    func put(hash: String, body: RequestBody, maximumSize: Int) async throws -> Bool
    /// Re-reads a stored blob and reports whether its bytes still hash to its address.
    func verify(hash: String) async throws -> Bool
    /// A response body with the bytes of `range` (inclusive) of a stored blob.
    func body(hash: String, range: ClosedRange<Int>, context: some RequestContext) async throws -> ResponseBody
}

/// Why a blob upload was refused.
public struct BlobStoreError: Error, Hashable, Sendable {
    /// The stable reason: a struct, so reasons can be added.
    public struct Reason: RawRepresentable, Hashable, Sendable {
        /// The reason as written (`hash_mismatch`).
        public let rawValue: String
        /// Creates a reason.
        public init(rawValue: String) { self.rawValue = rawValue }
        /// The bytes do not hash to the blob's name.
        public static let hashMismatch = Reason(rawValue: "hash_mismatch")
        /// The blob is larger than allowed.
        public static let tooLarge = Reason(rawValue: "too_large")
        /// No blob has that hash.
        public static let notFound = Reason(rawValue: "not_found")
    }
    /// The reason.
    public let reason: Reason
    /// Creates an error.
    public init(_ reason: Reason) { self.reason = reason }
}
