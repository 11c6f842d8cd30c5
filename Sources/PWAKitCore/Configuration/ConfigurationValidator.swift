public import Foundation

/// Checks raw `pwa-config.json` bytes against schema version 1 and reports every problem
/// at once, each with the JSON path of the field at fault.
///
/// It works on the raw document rather than on decoded types so that one run can report
/// a wrong type in `features` and a bad pattern in `origins` together; unknown keys at any
/// level are warnings, not errors, so files written for newer builds still load.
public struct ConfigurationValidator: Sendable {
    /// The largest document accepted, in bytes (1 MiB).
    public static let maximumSize = 1 << 20

    /// The keys each object may have (others are warnings); the JSON Schema and the reference list the same.
    static let topLevelKeys = [
        "$schema", "version", "app", "origins", "features", "appearance", "notifications", "payments", "flags",
        "identifiers", "shareTarget",
    ]
    static let appKeys = ["name", "bundleId", "startUrl"]
    static let originsKeys = ["allowed", "auth", "external", "grants"]
    static let notificationsKeys = ["provider"]
    static let paymentsKeys = ["merchantId", "countryCode", "merchantName", "supportedNetworks"]
    static let appearanceKeys = [
        "displayMode", "pullToRefresh", "statusBarStyle", "orientationLock", "backgroundColor", "themeColor",
    ]

    /// Creates a validator.
    public init() {}

    /// Validates a document given as bytes.
    public func validate(_ data: Data) -> ValidationReport {
        guard data.count <= Self.maximumSize else {
            return ValidationReport(issues: [
                ValidationIssue(
                    severity: .error, path: "",
                    message: "the document is larger than \(Self.maximumSize) bytes (1 MiB)", code: .tooLarge)
            ])
        }
        let document: ConfigurationJSON
        do {
            document = try ConfigurationJSONParser.parse(data)
        } catch {
            return ValidationReport(issues: [
                ValidationIssue(
                    severity: .error, path: "", message: "not valid JSON: \(error.description)", code: .invalidJSON)
            ])
        }
        return validate(document: document)
    }

    /// Validates a configuration value, exactly as its encoded JSON would be validated.
    public func validate(_ configuration: PWAConfiguration) -> ValidationReport {
        validate(document: configuration.jsonTree)
    }

    func validate(document: ConfigurationJSON) -> ValidationReport {
        var context = ValidationContext()
        guard
            let root = context.object(
                document, at: "", known: Self.topLevelKeys, describedAs: "an object at the top level")
        else { return ValidationReport(issues: context.issues) }
        func field(_ key: String) -> ConfigurationJSON? { root.first { $0.key == key }?.value }

        if let schema = field("$schema"), schema.stringValue == nil {
            context.wrongType(schema, at: "$schema", expected: "a string")
        }
        checkVersion(field("version"), &context)
        let startURL = checkApp(field("app"), &context)
        let bundleId = field("app")?.members?.first { $0.key == "bundleId" }?.value.stringValue
        if let origins = field("origins") {
            var originsValidator = OriginsValidation(context: context)
            originsValidator.check(origins, startURL: startURL)
            context = originsValidator.context
        } else {
            context.error("origins", .missingField, "required section \"origins\" is missing")
        }
        if let features = field("features") { checkFeatures(features, &context) }
        if let appearance = field("appearance") { checkAppearance(appearance, &context) }
        if let notifications = field("notifications") { checkNotifications(notifications, &context) }
        if let payments = field("payments") { checkPayments(payments, &context) }
        if let flags = field("flags") { checkFlags(flags, &context) }
        checkIdentifiers(field("identifiers"), bundleId: bundleId, &context)
        if let shareTarget = field("shareTarget") { checkShareTarget(shareTarget, &context) }
        let paymentsOn = field("features")?.members?.first { $0.key == "payments" }?.value == .bool(true)
        if paymentsOn, field("payments") == nil {
            context.error(
                "payments", .missingField,
                "features.payments is on, so the \"payments\" section (merchantId, countryCode, merchantName) is required")
        }
        return ValidationReport(issues: context.issues)
    }

    // MARK: - Sections

    private func checkVersion(_ value: ConfigurationJSON?, _ context: inout ValidationContext) {
        let understood = PWAConfiguration.supportedVersions.map(String.init).joined(separator: ", ")
        guard let value else {
            context.error(
                "version", .missingField,
                "required field \"version\" is missing (this PWAKit understands version \(understood))")
            return
        }
        guard let version = value.integerValue else {
            context.wrongType(value, at: "version", expected: "an integer")
            return
        }
        if !PWAConfiguration.supportedVersions.contains(version) {
            context.error(
                "version", .unsupportedVersion,
                "unsupported version \(version): this PWAKit understands version \(understood)")
        }
    }

    /// Checks `app`; returns the start URL when it is a string, for the origins check.
    private func checkApp(_ value: ConfigurationJSON?, _ context: inout ValidationContext) -> String? {
        guard let value else {
            context.error("app", .missingField, "required section \"app\" is missing")
            return nil
        }
        guard let app = context.object(value, at: "app", known: Self.appKeys) else { return nil }
        if let name = context.requiredString(app, "name", in: "app"), name.trimmingASCIISpaces().isEmpty {
            context.error("app.name", .empty, "must not be empty")
        }
        if let bundleId = context.requiredString(app, "bundleId", in: "app"),
            let problem = Self.bundleIdProblem(bundleId)
        {
            context.error("app.bundleId", .invalidBundleId, "\(ValidationContext.quoted(bundleId)) \(problem)")
        }
        return context.requiredString(app, "startUrl", in: "app")
    }

    /// Why `text` is not a reverse-DNS bundle identifier (`dev.pwakit.hello`), or nil when it is one.
    static func bundleIdProblem(_ text: String) -> String? {
        if text.isEmpty { return "is empty" }
        if text.unicodeScalars.count > 155 { return "is longer than 155 characters" }
        let segments = text.split(separator: ".", omittingEmptySubsequences: false)
        if segments.count < 2 {
            return "is not reverse-DNS: write at least two dot-separated parts, like \"com.example.app\""
        }
        if segments.contains(where: \.isEmpty) { return "has an empty part between dots" }
        let valid = segments.allSatisfy { segment in
            segment.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "-" }
        }
        if !valid { return "may only contain letters A–Z, digits, '-' and '.'" }
        return nil
    }

    private func checkFeatures(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        guard let features = context.object(value, at: "features", known: FeatureFlags.names) else { return }
        for member in features where FeatureFlags.names.contains(member.key) {
            context.optionalBool(features, member.key, in: "features")
        }
    }

    private func checkAppearance(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        guard let appearance = context.object(value, at: "appearance", known: Self.appearanceKeys) else { return }
        func checkEnum(_ key: String, _ accepted: [String]) {
            guard let value = appearance.first(where: { $0.key == key })?.value else { return }
            let path = "appearance.\(key)"
            guard let text = value.stringValue else {
                context.wrongType(value, at: path, expected: "a string (one of \(accepted.joined(separator: ", ")))")
                return
            }
            if !accepted.contains(text) {
                context.error(
                    path, .invalidValue,
                    "\(ValidationContext.quoted(text)) is not one of \(accepted.joined(separator: ", "))")
            }
        }
        checkEnum("displayMode", DisplayMode.allCases.map(\.rawValue))
        checkEnum("statusBarStyle", StatusBarStyle.allCases.map(\.rawValue))
        checkEnum("orientationLock", OrientationLock.allCases.map(\.rawValue))
        context.optionalBool(appearance, "pullToRefresh", in: "appearance")
        for key in ["backgroundColor", "themeColor"] {
            guard let value = appearance.first(where: { $0.key == key })?.value else { continue }
            let path = "appearance.\(key)"
            guard let text = value.stringValue else {
                context.wrongType(value, at: path, expected: "a string \"#RRGGBB\"")
                continue
            }
            if HexColor(strict: text) == nil {
                var message = "\(ValidationContext.quoted(text)) is not a colour of the form #RRGGBB"
                if let suggestion = HexColor(lenient: text) { message += "; write \"\(suggestion)\"" }
                context.error(path, .invalidColor, message)
            }
        }
    }

    private func checkShareTarget(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        guard
            let target = context.object(value, at: "shareTarget", known: ["action", "method", "enctype", "params"])
        else { return }
        if let action = context.requiredString(target, "action", in: "shareTarget"),
            let problem = ShareTargetSection.actionProblem(action)
        {
            context.error("shareTarget.action", .invalidValue, "\(ValidationContext.quoted(action)) \(problem)")
        }
        if let method = target.first(where: { $0.key == "method" })?.value {
            if let text = method.stringValue {
                if text.uppercased() != "GET" {
                    context.error(
                        "shareTarget.method", .invalidValue,
                        "\(ValidationContext.quoted(text)): the host takes shares by GET only (POST bodies and files are not supported)"
                    )
                }
            } else {
                context.wrongType(method, at: "shareTarget.method", expected: "a string")
            }
        }
        if let enctype = target.first(where: { $0.key == "enctype" })?.value {
            if enctype.stringValue?.lowercased() != ShareTargetSection.formEncoding {
                context.error(
                    "shareTarget.enctype", .invalidValue,
                    "a GET share is encoded \"\(ShareTargetSection.formEncoding)\", found \(ValidationContext.describe(enctype))")
            }
        }
        guard let paramsValue = target.first(where: { $0.key == "params" })?.value else {
            context.error("shareTarget.params", .missingField, "required field \"params\" is missing (e.g. {\"url\": \"url\"})")
            return
        }
        guard let params = context.object(paramsValue, at: "shareTarget.params", known: ["title", "text", "url", "files"])
        else { return }
        var named = 0
        for member in params {
            let path = ValidationContext.path("shareTarget.params", key: member.key)
            if member.key == "files" {
                context.error(path, .invalidValue, "shared files are not supported (they need a POST share target)")
                continue
            }
            guard ["title", "text", "url"].contains(member.key) else { continue }
            guard let name = member.value.stringValue else {
                context.wrongType(member.value, at: path, expected: "a query parameter name")
                continue
            }
            if ShareTargetSection.isParameterName(name) {
                named += 1
            } else {
                context.error(
                    path, .invalidValue, "\(ValidationContext.quoted(name)) is not a parameter name (1…64 of A-Z a-z 0-9 - _ .)")
            }
        }
        if named == 0, !params.contains(where: { ["title", "text", "url"].contains($0.key) }) {
            context.error("shareTarget.params", .missingField, "must name a parameter for at least one of title, text and url")
        }
    }

    private func checkPayments(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        guard let payments = context.object(value, at: "payments", known: Self.paymentsKeys) else { return }
        if let merchant = context.requiredString(payments, "merchantId", in: "payments"),
            !PaymentsSection.isMerchantId(merchant)
        {
            context.error(
                "payments.merchantId", .invalidValue,
                "\(ValidationContext.quoted(merchant)) is not a merchant identifier like \"merchant.com.example.shop\"")
        }
        if let country = context.requiredString(payments, "countryCode", in: "payments"), !PaymentsSection.isCountryCode(country)
        {
            context.error(
                "payments.countryCode", .invalidValue,
                "\(ValidationContext.quoted(country)) is not an ISO 3166-1 alpha-2 country code like \"US\"")
        }
        if let name = context.requiredString(payments, "merchantName", in: "payments"),
            name.trimmingCharacters(in: .whitespaces).isEmpty || name.utf8.count > 100
        {
            context.error("payments.merchantName", .invalidValue, "must be 1…100 bytes of text")
        }
        guard let networks = payments.first(where: { $0.key == "supportedNetworks" })?.value else { return }
        guard let list = networks.elements, !list.isEmpty else {
            context.wrongType(networks, at: "payments.supportedNetworks", expected: "a non-empty array of network names")
            return
        }
        for (index, item) in list.enumerated() where !(item.stringValue.map(PaymentsSection.networks.contains) ?? false) {
            context.error(
                "payments.supportedNetworks[\(index)]", .invalidValue,
                "is not one of \(PaymentsSection.networks.joined(separator: ", "))")
        }
    }

    private func checkNotifications(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        guard let notifications = context.object(value, at: "notifications", known: Self.notificationsKeys) else { return }
        guard let provider = context.requiredString(notifications, "provider", in: "notifications") else { return }
        let accepted = NotificationProvider.allCases.map(\.rawValue)
        if !accepted.contains(provider) {
            context.error(
                "notifications.provider", .invalidValue,
                "\(ValidationContext.quoted(provider)) is not one of \(accepted.joined(separator: ", "))")
        }
    }

    /// The most flag defaults a configuration declares.
    static let maximumFlags = 256

    private func checkFlags(_ value: ConfigurationJSON, _ context: inout ValidationContext) {
        // NB: through `object`, as every other object, so a flag written twice is `duplicate_key`
        // and only its first value is checked.
        guard let members = context.object(value, at: "flags", known: nil, describedAs: "an object of flag defaults")
        else { return }
        if members.count > Self.maximumFlags {
            context.error("flags", .invalidValue, "at most \(Self.maximumFlags) flags, found \(members.count)")
        }
        for member in members {
            let path = "flags." + member.key
            if !Self.isFlagKey(member.key) {
                context.error(
                    path, .invalidValue, "a flag name is 1 to 64 characters of a-z, 0-9, _ and ., starting with a letter")
                continue
            }
            switch member.value {
            case .bool, .number: break
            case .string(let text) where text.utf8.count > 1024:
                context.error(path, .invalidValue, "a string default is at most 1024 bytes, found \(text.utf8.count)")
            case .string: break
            default: context.wrongType(member.value, at: path, expected: "a boolean, a number or a string")
            }
        }
    }

    static func isFlagKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard let first = bytes.first, bytes.count <= 64, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
            return false
        }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
    }
}
