/// What happened when a refresh token was presented.
public enum RefreshConsumption: Hashable, Sendable {
    /// The token was valid and is now used; the successor offered with it is stored in its family.
    case rotated(familyId: String, userId: String)
    /// The token had just been used, by the same client, within the grace window, and the successor
    /// issued then was still unused: that successor is now used and the one offered replaces it
    /// (a retry after a lost response, not a theft).
    case retried(familyId: String, userId: String)
    /// The token had been used before or its family is revoked: the family is now revoked.
    case reused(familyId: String)
    /// The token is expired.
    case expired
    /// No such token.
    case unknown
    /// Another retry of the same token from the same client, within the grace window, took its
    /// place first: this one is refused and the family lives on with that retry's tokens.
    case retryOvertaken
}
