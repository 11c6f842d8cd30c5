import Foundation
import HTTPTypes
import JWTKit

/// The claims of a host's access token.
struct AccessClaims: JWTPayload {
    var sub: SubjectClaim
    var iss: IssuerClaim
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    var role: String
    /// The session: the refresh-token family the token was issued with. Ending the family (logout, reuse)
    /// ends its access tokens too.
    var sid: String

    /// Signature checks happen in jwt-kit; time and audience are checked by `TokenService`
    /// against the injected clock, so nothing is left to check here.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of a launch token a mini-app verifies offline.
struct LaunchClaims: JWTPayload {
    var sub: SubjectClaim
    var iss: IssuerClaim
    /// The mini-app id the token is for.
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    var exp: ExpirationClaim
    /// A random value the mini-app remembers until `exp` to refuse replays.
    var nonce: String
    /// The bundle hash of the release being launched.
    var bundle: String
    var email: String
    /// Always false until the platform verifies email addresses.
    var email_verified: Bool
    var name: String

    /// Checked by the mini-app with its own clock; the server only signs these.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}

/// The claims of the server's statement that a person approved a mobile-authentication transaction.
struct ApprovalClaims: JWTPayload {
    var sub: SubjectClaim
    var iss: IssuerClaim
    /// The app whose backend asked.
    var aud: AudienceClaim
    var iat: IssuedAtClaim
    /// Five minutes after `iat`: an approval is acted on when it is made.
    var exp: ExpirationClaim
    /// `mobile-auth-approval`: what this token is, so it is never taken for a launch token.
    var typ: String
    /// The transaction id.
    var txn: String
    /// The transaction's nonce.
    var nonce: String
    /// `approve`.
    var decision: String
    /// How the person was verified: `["pin"]` or `["biometric"]`.
    var amr: [String]
    /// The hash of the message and data that were shown.
    var ctx: String

    /// Checked by the backend that asked; the server only signs these.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
