/// A payload with rules its type cannot state (ranges, lengths, "at least one of").
///
/// ``ModuleActions`` runs ``validate()`` after decoding and before the handler; throw
/// ``BridgeError/field(_:path:_:)`` with code `invalid_payload` and the field's path
/// (`payload.trigger.weekday`).
public protocol ValidatedPayload {
    /// Throws `invalid_payload` naming the first field at fault.
    func validate() throws(BridgeError)
}
