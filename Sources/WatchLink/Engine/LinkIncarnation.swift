/// One run of a device's engine: a boot count kept in the durable log plus a random nonce.
///
/// A non-durable request leaves no trace on disk, so only the incarnation that ran it can
/// recognise a retry. The sender therefore addresses each non-durable request to one
/// incarnation of the receiver, and the receiver runs it only when it is that incarnation.
package struct LinkIncarnation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// How many times the device's engine has recovered from its log.
    package var boot: UInt64
    /// A random value telling apart incarnations that share a boot count.
    package var nonce: UInt64

    /// Creates an incarnation.
    package init(boot: UInt64, nonce: UInt64) {
        self.boot = boot
        self.nonce = nonce
    }

    /// `boot.nonce` in hexadecimal, for logs and error details.
    package var description: String { "\(boot).\(String(nonce, radix: 16))" }
}
