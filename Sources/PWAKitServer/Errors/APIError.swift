import Foundation
public import HTTPTypes
public import Hummingbird
import NIOCore
import PWAKitAPI

/// An error answered to a client: an HTTP status and a JSON body
/// `{"error": {"code": "...", "message": "...", "field": "..."}}`.
public struct APIError: Error, HTTPResponseError, Sendable, CustomStringConvertible {
    /// A stable, machine-readable error code; codes are added, never renamed.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string form.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        /// The stable string form.
        public var description: String { rawValue }

        /// The body is not JSON, or a field is missing, of the wrong type or out of range.
        public static let invalidRequest = Code("invalid_request")
        /// The body is larger than the endpoint accepts.
        public static let payloadTooLarge = Code("payload_too_large")
        /// No valid access token (or app credential) was presented.
        public static let unauthorized = Code("unauthorized")
        /// The caller is authenticated but may not do this.
        public static let forbidden = Code("forbidden")
        /// The resource does not exist (or is not visible to the caller).
        public static let notFound = Code("not_found")
        /// Email or password is wrong — the same answer whether or not the account exists.
        public static let invalidCredentials = Code("invalid_credentials")
        /// Too many failed logins for this account or address; see `Retry-After`.
        public static let tooManyAttempts = Code("too_many_attempts")
        /// The refresh token is unknown, expired or revoked.
        public static let invalidRefreshToken = Code("invalid_refresh_token")
        /// A used refresh token was presented again; its whole family is now revoked.
        public static let refreshTokenReused = Code("refresh_token_reused")
        /// The resource already exists.
        public static let conflict = Code("conflict")
        /// The manifest's signature does not verify with the app's publisher keys.
        public static let badSignature = Code("bad_signature")
        /// The manifest is malformed or inconsistent with the request.
        public static let invalidManifest = Code("invalid_manifest")
        /// A blob the manifest lists is not stored, or its size differs.
        public static let missingBlobs = Code("missing_blobs")
        /// The uploaded bytes do not hash to the address they were sent to.
        public static let hashMismatch = Code("hash_mismatch")
        /// The version is not above the channel's newest release.
        public static let versionNotNewer = Code("version_not_newer")
        /// The launch code is unknown, used, expired or for another app.
        public static let invalidLaunchCode = Code("invalid_launch_code")
        /// The requested range cannot be satisfied.
        public static let rangeNotSatisfiable = Code("range_not_satisfiable")
        /// The method is not allowed on this path.
        public static let methodNotAllowed = Code("method_not_allowed")
        /// The server failed; the message says no more.
        public static let internalError = Code("internal_error")
        /// Too much work is queued (password hashing); try again after `Retry-After`.
        public static let busy = Code("busy")
        /// The server has no push sender configured (`pwakit server --push-log` or the APNs options).
        public static let pushUnavailable = Code("push_unavailable")
        /// The release is signed by a publisher key that was revoked.
        public static let keyRevoked = Code("key_revoked")
        /// The device proof is missing, malformed, from an unknown device, or its signature does not verify.
        public static let invalidProof = Code("invalid_proof")
        /// The device proof's time is further from the server's clock than the skew bound; fix the device clock.
        public static let clockSkew = Code("clock_skew")
        /// The device proof's nonce was used before: a replayed request.
        public static let proofReplayed = Code("proof_replayed")
        /// The device was revoked or deregistered (too many wrong PINs): it must wipe its identity data.
        public static let deviceDeregistered = Code("device_deregistered")
        /// The PIN was wrong; the message says how many attempts are left.
        public static let wrongPIN = Code("wrong_pin")
        /// The user already has as many enrolled devices as allowed; revoke one first.
        public static let deviceLimit = Code("device_limit")
        /// No enrolled device can be asked for this address (no such account, or none enrolled: the same answer).
        public static let notEnrolled = Code("not_enrolled")
        /// The user already has a pending mobile-authentication request.
        public static let transactionPending = Code("transaction_pending")
        /// The transaction has expired, was answered, or has ended.
        public static let transactionClosed = Code("transaction_closed")
        /// The typed number is not the one the requesting screen showed; the transaction is rejected.
        public static let numberMismatch = Code("number_mismatch")
        /// The user reported a recent request as not theirs; requests are muted for a while.
        public static let requestsMuted = Code("requests_muted")
        /// The person denied the sign-in on their device.
        public static let signInDenied = Code("sign_in_denied")
        /// The sign-in link is unknown, expired, used, or its verifier is not the asking device's.
        public static let invalidMagicLink = Code("invalid_magic_link")
        /// This server has no mailer configured (`pwakit server --smtp-url`).
        public static let mailUnavailable = Code("mail_unavailable")
    }

    /// The HTTP status.
    public let status: HTTPResponse.Status
    /// The stable code.
    public let code: Code
    /// A human-readable explanation.
    public let message: String
    /// The request field at fault (`password`, `files[2].sha256`), when there is one.
    public let field: String?
    /// Extra response headers (`Retry-After`, `WWW-Authenticate`, `Content-Range`).
    public var headers: HTTPFields

    /// Creates an error.
    public init(_ status: HTTPResponse.Status, _ code: Code, _ message: String, field: String? = nil, headers: HTTPFields = [:]) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
        self.headers = headers
    }

    /// `status code (field): message`.
    public var description: String { "\(status.code) \(code)\(field.map { " (\($0))" } ?? ""): \(message)" }

    /// Renders the JSON error body.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(ErrorBody(error: .init(code: code.rawValue, message: message, field: field)))
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}

extension APIError {
    static func invalid(_ field: String, _ problem: String) -> APIError {
        APIError(.badRequest, .invalidRequest, "\(field) \(problem)", field: field)
    }

    static func unauthorized(_ message: String = "a valid access token is required") -> APIError {
        APIError(.unauthorized, .unauthorized, message, headers: [.wwwAuthenticate: "Bearer"])
    }

    static func notFound(_ what: String) -> APIError { APIError(.notFound, .notFound, "\(what) not found") }
}
