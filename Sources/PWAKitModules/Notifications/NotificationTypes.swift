public import PWAKitCore

/// Whether the app may show notifications.
public enum NotificationPermissionState: String, Codable, Sendable, SchemaEnum {
    /// The user has not been asked.
    case notDetermined = "not_determined"
    /// The user refused.
    case denied
    /// The user allowed them.
    case granted
    /// This host cannot show notifications at all.
    case unavailable
}

/// The result of `notifications.getPermissionState` and `requestPermission`.
public struct NotificationPermission: Codable, Sendable, Hashable {
    /// The state.
    public var state: NotificationPermissionState
    /// Whether ``state`` is `granted` (the PWAKit project's `requestPermission` answers it).
    public private(set) var granted: Bool
    /// Creates a result.
    public init(state: NotificationPermissionState) {
        self.state = state
        self.granted = state == .granted
    }
}

/// The result of `notifications.getToken` and `subscribe`.
public struct PushSubscription: Codable, Sendable, Hashable {
    /// The push token the app's server sends to.
    public var token: String
    /// The push provider, e.g. `apns`.
    public var provider: String
    /// Always true: failures are errors (the PWAKit project's SDK reads it).
    public private(set) var success: Bool
    /// Creates a result.
    public init(token: String, provider: String) {
        self.token = token
        self.provider = provider
        self.success = true
    }
}

/// The payload of `notifications.schedule`: a local notification and when it fires.
public struct LocalNotification: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The notification's id; scheduling an id again replaces the pending one.
    public var id: String
    /// The title.
    public var title: String
    /// The body text.
    public var body: String?
    /// A subtitle.
    public var subtitle: String?
    /// The app badge to show when it fires.
    public var badge: Int?
    /// A sound name, or `default`.
    public var sound: String?
    /// App data handed back when the notification is tapped.
    public var data: JSONValue?
    /// When it fires.
    public var trigger: NotificationTrigger

    /// Creates a notification.
    public init(
        id: String, title: String, body: String? = nil, subtitle: String? = nil, badge: Int? = nil, sound: String? = nil,
        data: JSONValue? = nil, trigger: NotificationTrigger
    ) {
        self.id = id
        self.title = title
        self.body = body
        self.subtitle = subtitle
        self.badge = badge
        self.sound = sound
        self.data = data
        self.trigger = trigger
    }

    /// The limits.
    public static let fieldNotes = [
        "id": "1…256 bytes", "title": "1…1024 bytes", "body": "at most 4096 bytes", "subtitle": "at most 1024 bytes",
        "badge": "0…999999", "sound": "at most 256 bytes",
    ]

    /// Checks lengths, the badge and the trigger's ranges (not that a date lies ahead: the
    /// module checks that against its clock).
    public func validate() throws(BridgeError) {
        try FieldCheck.nonEmpty(id, "payload.id", maxBytes: 256)
        try FieldCheck.nonEmpty(title, "payload.title", maxBytes: 1024)
        try FieldCheck.length(body, "payload.body", maxBytes: 4096)
        try FieldCheck.length(subtitle, "payload.subtitle", maxBytes: 1024)
        try FieldCheck.length(sound, "payload.sound", maxBytes: 256)
        try FieldCheck.range(badge, 0...999_999, "payload.badge")
        try trigger.validate(path: "payload.trigger")
    }
}

/// When a local notification fires: `{type: "timeInterval" | "date" | "calendar", …}`.
public enum NotificationTrigger: Codable, Sendable, Hashable, SchemaDescribed {
    /// After `seconds`; repeating intervals must be at least 60 s.
    case timeInterval(TimeIntervalTrigger)
    /// At an instant.
    case date(DateTrigger)
    /// When the clock matches the given components.
    case calendar(CalendarTrigger)

    private enum Key: String, CodingKey { case type }

    /// Decodes by the `type` field.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "timeInterval": self = .timeInterval(try TimeIntervalTrigger(from: decoder))
        case "date": self = .date(try DateTrigger(from: decoder))
        case "calendar": self = .calendar(try CalendarTrigger(from: decoder))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "must be timeInterval, date or calendar, got \"\(type)\"")
        }
    }

    /// Encodes with its `type` field.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        switch self {
        case .timeInterval(let trigger):
            try container.encode("timeInterval", forKey: .type)
            try trigger.encode(to: encoder)
        case .date(let trigger):
            try container.encode("date", forKey: .type)
            try trigger.encode(to: encoder)
        case .calendar(let trigger):
            try container.encode("calendar", forKey: .type)
            try trigger.encode(to: encoder)
        }
    }

    /// A union told apart by `type`.
    public static func schemaNode() throws(SchemaError) -> SchemaNode {
        func object<T: Decodable>(_ type: T.Type) throws(SchemaError) -> SchemaObject {
            guard case .object(let object) = try SchemaRecorder.describe(type).node else {
                throw SchemaError(type: String(describing: type), reason: "a trigger variant must be an object")
            }
            return object
        }
        return .union(
            SchemaUnion(
                name: "NotificationTrigger", discriminator: "type",
                variants: [
                    .init(tag: "timeInterval", object: try object(TimeIntervalTrigger.self)),
                    .init(tag: "date", object: try object(DateTrigger.self)),
                    .init(tag: "calendar", object: try object(CalendarTrigger.self)),
                ]))
    }

    /// A one-minute interval.
    public static var schemaPlaceholder: NotificationTrigger { .timeInterval(TimeIntervalTrigger(seconds: 60)) }

    /// Whether it fires more than once.
    public var repeats: Bool {
        switch self {
        case .timeInterval(let trigger): trigger.repeats ?? false
        case .date: false
        case .calendar(let trigger): trigger.repeats ?? false
        }
    }

    func validate(path: String) throws(BridgeError) {
        switch self {
        case .timeInterval(let trigger):
            guard trigger.seconds.isFinite, trigger.seconds > 0 else {
                throw .field(.invalidPayload, path: "\(path).seconds", "must be greater than 0")
            }
            if trigger.seconds > 366 * 86_400 {
                throw .field(.invalidPayload, path: "\(path).seconds", "must be at most one year")
            }
            if trigger.repeats == true, trigger.seconds < 60 {
                throw .field(.invalidPayload, path: "\(path).seconds", "a repeating interval must be at least 60 seconds")
            }
        case .date:
            break
        case .calendar(let trigger):
            try trigger.validate(path: path)
        }
    }
}

/// `{type: "timeInterval", seconds, repeats?}`.
public struct TimeIntervalTrigger: Codable, Sendable, Hashable, SchemaFieldNotes {
    /// Seconds from scheduling (or between repeats).
    public var seconds: Double
    /// Whether it repeats.
    public var repeats: Bool?

    /// Creates a trigger.
    public init(seconds: Double, repeats: Bool? = nil) {
        self.seconds = seconds
        self.repeats = repeats
    }

    /// The limits.
    public static let fieldNotes = ["seconds": "> 0, at most one year; at least 60 when repeating"]
}

/// `{type: "date", date}`.
public struct DateTrigger: Codable, Sendable, Hashable, SchemaFieldNotes {
    /// When it fires; must lie ahead.
    public var date: ISODate

    /// Creates a trigger.
    public init(date: ISODate) { self.date = date }

    /// The rule.
    public static let fieldNotes = ["date": "ISO 8601 with a time zone, in the future"]
}

/// `{type: "calendar", hour?, minute?, second?, weekday?, day?, month?, year?, repeats?}`:
/// fires when the local clock matches every given component.
public struct CalendarTrigger: Codable, Sendable, Hashable, SchemaFieldNotes {
    /// 0…23.
    public var hour: Int?
    /// 0…59.
    public var minute: Int?
    /// 0…59.
    public var second: Int?
    /// 1 (Sunday) … 7 (Saturday).
    public var weekday: Int?
    /// 1…31.
    public var day: Int?
    /// 1…12.
    public var month: Int?
    /// 1970…9999.
    public var year: Int?
    /// Whether it fires at every match.
    public var repeats: Bool?

    /// Creates a trigger.
    public init(
        hour: Int? = nil, minute: Int? = nil, second: Int? = nil, weekday: Int? = nil, day: Int? = nil, month: Int? = nil,
        year: Int? = nil, repeats: Bool? = nil
    ) {
        self.hour = hour
        self.minute = minute
        self.second = second
        self.weekday = weekday
        self.day = day
        self.month = month
        self.year = year
        self.repeats = repeats
    }

    /// The ranges.
    public static let fieldNotes = [
        "hour": "0…23", "minute": "0…59", "second": "0…59", "weekday": "1 (Sunday) … 7 (Saturday)", "day": "1…31",
        "month": "1…12", "year": "1970…9999; a repeating trigger may not name a year",
    ]

    func validate(path: String) throws(BridgeError) {
        try FieldCheck.range(hour, 0...23, "\(path).hour")
        try FieldCheck.range(minute, 0...59, "\(path).minute")
        try FieldCheck.range(second, 0...59, "\(path).second")
        try FieldCheck.range(weekday, 1...7, "\(path).weekday")
        try FieldCheck.range(day, 1...31, "\(path).day")
        try FieldCheck.range(month, 1...12, "\(path).month")
        try FieldCheck.range(year, 1970...9999, "\(path).year")
        if [hour, minute, second, weekday, day, month, year].allSatisfy({ $0 == nil }) {
            throw .field(.invalidPayload, path: path, "a calendar trigger needs at least one component")
        }
        if repeats == true, year != nil {
            throw .field(.invalidPayload, path: "\(path).year", "a repeating calendar trigger may not name a year")
        }
    }
}

/// The payload of `notifications.cancel`.
public struct NotificationID: Codable, Sendable, Hashable, ValidatedPayload {
    /// The notification's id.
    public var id: String
    /// Creates a payload.
    public init(id: String) { self.id = id }
    /// 1…256 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(id, "payload.id", maxBytes: 256) }
}

/// The result of `notifications.cancel`.
public struct NotificationCancelled: Codable, Sendable, Hashable {
    /// Whether a pending notification had that id.
    public var cancelled: Bool
}

/// The result of `notifications.schedule`.
public struct NotificationScheduled: Codable, Sendable, Hashable {
    /// The notification's id.
    public var id: String
    /// When it will first fire.
    public var nextFireDate: ISODate
    /// Always true: failures are errors (the PWAKit project's SDK reads it).
    public private(set) var success: Bool
    /// True when no notification service runs now: the notification is kept and shown once one does.
    public var deferred: Bool

    /// Creates a result.
    public init(id: String, nextFireDate: ISODate, deferred: Bool = false) {
        self.id = id
        self.nextFireDate = nextFireDate
        self.success = true
        self.deferred = deferred
    }
}

/// The result of `notifications.getPending`.
public struct PendingNotifications: Codable, Sendable, Hashable {
    /// The pending notifications, soonest first.
    public var notifications: [PendingNotification]
}

/// A scheduled notification that has not fired (or repeats).
public struct PendingNotification: Codable, Sendable, Hashable {
    /// The notification as scheduled.
    public var notification: LocalNotification
    /// When it fires next.
    public var nextFireDate: ISODate
    /// The notification's id, title, body, subtitle, whether it repeats and ``nextFireDate``, flat, as
    /// the PWAKit project's `getPending` lists them.
    public var id: String
    /// The title.
    public var title: String
    /// The body.
    public var body: String?
    /// The subtitle.
    public var subtitle: String?
    /// Whether the trigger repeats.
    public var repeats: Bool
    /// ``nextFireDate`` under the PWAKit project's name.
    public private(set) var nextTriggerDate: ISODate

    /// Creates an entry.
    public init(notification: LocalNotification, nextFireDate: ISODate) {
        self.notification = notification
        self.nextFireDate = nextFireDate
        self.id = notification.id
        self.title = notification.title
        self.body = notification.body
        self.subtitle = notification.subtitle
        self.repeats = notification.trigger.repeats
        self.nextTriggerDate = nextFireDate
    }
}

/// The data of the `push` event.
public struct PushEvent: Codable, Sendable, Hashable {
    /// `received` (arrived while the app runs) or `tapped` (the user opened it).
    public var type: PushEventType
    /// The notification's id, when it has one.
    public var id: String?
    /// Its title.
    public var title: String?
    /// Its body.
    public var body: String?
    /// The app data it carried.
    public var data: JSONValue?
    /// Its subtitle.
    public var subtitle: String?
    /// ``data`` under the PWAKit project's name.
    public private(set) var userInfo: JSONValue?

    /// Creates an event.
    public init(
        type: PushEventType, id: String? = nil, title: String? = nil, body: String? = nil, data: JSONValue? = nil,
        subtitle: String? = nil
    ) {
        self.type = type
        self.id = id
        self.title = title
        self.body = body
        self.data = data
        self.subtitle = subtitle
        self.userInfo = data
    }
}

/// How a push reached the app.
public enum PushEventType: String, Codable, Sendable, SchemaEnum {
    /// It arrived while the app was running.
    case received
    /// The user tapped it.
    case tapped
}
