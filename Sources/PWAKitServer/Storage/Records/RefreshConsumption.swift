/// What happened when a refresh token was presented.
public enum RefreshConsumption: Hashable, Sendable {
    /// The token was valid and is now used; the caller issues the next token of the family.
    case rotated(familyId: String, userId: String)
    /// The token had been used before or its family is revoked: the family is now revoked.
    case reused(familyId: String)
    /// The token is expired.
    case expired
    /// No such token.
    case unknown
}
