/// A named query item: how it is read, what an absent item means and how it is written.
struct QueryField: Sendable {
    /// What printing a value produced.
    enum Printed {
        /// The item is left out (an optional that is `nil`, a value equal to the default).
        case omitted
        /// The item with this decoded value.
        case text(String)
        /// The value has no text form.
        case unprintable
    }

    let name: String
    let typeName: String
    let parse: @Sendable (String) -> Any?
    /// The value of an absent item; `nil` when the item is required.
    let absent: (@Sendable () -> Any)?
    let print: @Sendable (Any) -> Printed
}
