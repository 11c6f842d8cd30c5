package import Foundation

/// The envelope a response travels in.
package struct WireResponse: Hashable, Sendable, Codable {
    /// The request this answers.
    package var requestID: UUID
    /// The idempotency key of the request this answers.
    package var idempotencyKey: String
    /// The encoded response value on success.
    package var value: Data?
    /// The structured error on failure.
    package var error: WatchLinkError?
    /// When the response was produced.
    package var createdAt: WatchTimestamp
    /// The responder's incarnation, stamped when the response is sent.
    package var incarnation: LinkIncarnation?
    /// The responder's ordered floor as a sender (see ``WireRequest/floor``), stamped when sent.
    package var floor: UInt64?

    /// Creates a response envelope from an outcome.
    package init(requestID: UUID, idempotencyKey: String, outcome: Result<Data, WatchLinkError>, createdAt: WatchTimestamp) {
        self.requestID = requestID
        self.idempotencyKey = idempotencyKey
        self.createdAt = createdAt
        switch outcome {
        case .success(let data): value = data; error = nil
        case .failure(let failure): value = nil; error = failure
        }
    }

    /// The outcome the envelope carries.
    package var outcome: Result<Data, WatchLinkError> {
        if let error { return .failure(error) }
        return .success(value ?? Data())
    }

    enum CodingKeys: String, CodingKey {
        case requestID = "id", idempotencyKey = "idem", value, error, createdAt = "at", incarnation = "from", floor
    }

    /// Checks that exactly one of value and error is present.
    func validate() throws(WatchLinkError) {
        if (value == nil) == (error == nil) {
            throw WatchLinkError(
                .invalidEnvelope, "a response carries exactly one of value and error", details: ["field": "response.value"])
        }
    }
}
