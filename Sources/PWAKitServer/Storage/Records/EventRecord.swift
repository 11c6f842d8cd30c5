public import Foundation

/// One stored analytics event: what a device sent, who sent it and when it arrived.
public struct EventRecord: Hashable, Sendable {
    /// The event's id (a lowercase UUID): the key it is stored once by.
    public var id: String
    /// The signed-in user whose device sent it.
    public var userId: String
    /// What happened.
    public var name: String
    /// Which process recorded it.
    public var source: String
    /// When it happened, in milliseconds since 1970.
    public var occurredAt: Int64
    /// When the server stored it.
    public var receivedAt: Date
    /// Its properties as the JSON object they arrived as.
    public var properties: String

    /// Creates a record.
    public init(
        id: String, userId: String, name: String, source: String, occurredAt: Int64, receivedAt: Date, properties: String
    ) {
        self.id = id
        self.userId = userId
        self.name = name
        self.source = source
        self.occurredAt = occurredAt
        self.receivedAt = receivedAt
        self.properties = properties
    }
}
