public import PWAKitCore

/// `payments` [features.payments, off by default; needs the `payments` section]: Apple Pay
/// through the bridge — whether the device can pay, and a payment sheet for a list of items
/// that answers an authorised payment token or `cancelled`.
///
/// The merchant (id, country, name, networks) comes from the app's configuration, never from
/// the page. Amounts are decimal strings in the currency's minor units (`"4.50"` EUR, `"500"`
/// JPY), never binary floating point; the total is their exact sum.
public struct PaymentsModule: ActionModule {
    /// `payments`.
    public static let moduleName = "payments"
    /// `payments`.
    public static let featureFlag: String? = "payments"
    /// One line for the reference.
    public static let summary = "Apple Pay: whether the device can pay, and a payment sheet answering an authorised token."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("payments.not_configured", "The app's configuration has no `payments` section (merchant)."),
        ModuleErrorCode("payments.unavailable", "This device cannot pay with the configured networks."),
        ModuleErrorCode("payments.failed", "The payment was not authorised (declined, or the sheet failed)."),
    ]
    /// The actions.
    public static let actions = ModuleActions<PaymentsModule>()
        .action(
            "canMakePayments", result: PaymentsAvailability.self,
            summary: "Whether the device can pay with the configured networks."
        ) { module, context in
            let merchant = try module.merchant(context)
            return await module.provider.availability(networks: merchant.networks)
        }
        .action(
            "request", payload: PaymentRequest.self, result: PaymentResult.self,
            summary: "Shows the payment sheet; answers `authorized` with the token, or `cancelled`. Declines are errors.",
            example: PaymentRequest(
                items: [PaymentItem(label: "Flat white", amount: "3.40"), PaymentItem(label: "Croissant", amount: "2.10")],
                currency: "EUR")
        ) { module, request, context in
            let merchant = try module.merchant(context)
            guard await module.provider.availability(networks: merchant.networks).canMakePayments else {
                throw BridgeError(.module("payments", "unavailable"), "this device cannot pay with \(merchant.networks)")
            }
            let total = try request.total()
            let sheet = PaymentSheet(
                merchantId: merchant.merchantId, merchantName: merchant.merchantName, countryCode: merchant.countryCode,
                networks: merchant.networks, currency: request.currency, items: request.items,
                total: PaymentItem(label: request.totalLabel ?? merchant.merchantName, amount: total))
            guard let token = try await module.provider.authorize(sheet) else {
                return PaymentResult(status: .cancelled, total: total, currency: request.currency)
            }
            return PaymentResult(status: .authorized, token: token, total: total, currency: request.currency)
        }

    let provider: any PaymentsProvider

    /// Creates the module over `provider`.
    public init(provider: any PaymentsProvider) { self.provider = provider }

    struct Merchant {
        var merchantId: String
        var merchantName: String
        var countryCode: String
        var networks: [String]
    }

    func merchant(_ context: ModuleContext) throws -> Merchant {
        guard let payments = context.configuration.payments else {
            throw BridgeError(
                .module("payments", "not_configured"), "the app's configuration has no payments section (merchantId, …)")
        }
        return Merchant(
            merchantId: payments.merchantId, merchantName: payments.merchantName, countryCode: payments.countryCode,
            networks: payments.supportedNetworks ?? PaymentsSection.networks)
    }
}

/// Apple Pay (PassKit) or a stand-in.
public protocol PaymentsProvider: Sendable {
    /// Whether the device can pay with one of `networks`.
    func availability(networks: [String]) async -> PaymentsAvailability
    /// Shows the sheet; the token when the person authorised, nil when they cancelled; throws
    /// `payments.failed` when it was declined.
    func authorize(_ sheet: PaymentSheet) async throws -> PaymentToken?
}

/// What the payment sheet shows: the merchant from the configuration, the page's items and
/// their total.
public struct PaymentSheet: Sendable, Hashable {
    /// The merchant identifier.
    public var merchantId: String
    /// The merchant's name.
    public var merchantName: String
    /// ISO 3166-1 alpha-2.
    public var countryCode: String
    /// The networks accepted.
    public var networks: [String]
    /// ISO 4217.
    public var currency: String
    /// The lines.
    public var items: [PaymentItem]
    /// The total line.
    public var total: PaymentItem
}

/// The result of `payments.canMakePayments`.
public struct PaymentsAvailability: Codable, Sendable, Hashable {
    /// Whether a payment can be made now.
    public var canMakePayments: Bool
    /// The networks the merchant accepts.
    public var networks: [String]
    /// Creates a result.
    public init(canMakePayments: Bool, networks: [String]) {
        self.canMakePayments = canMakePayments
        self.networks = networks
    }
}

/// One line of a payment.
public struct PaymentItem: Codable, Sendable, Hashable {
    /// What it is.
    public var label: String
    /// A decimal string in the currency's minor units: `"4.50"`; negative for a discount.
    public var amount: String
    /// Creates a line.
    public init(label: String, amount: String) {
        self.label = label
        self.amount = amount
    }
}

/// The payload of `payments.request`.
public struct PaymentRequest: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// The lines, 1…50.
    public var items: [PaymentItem]
    /// ISO 4217, upper case.
    public var currency: String
    /// The total line's label (default: the merchant's name).
    public var totalLabel: String?
    /// Creates a payload.
    public init(items: [PaymentItem], currency: String, totalLabel: String? = nil) {
        self.items = items
        self.currency = currency
        self.totalLabel = totalLabel
    }

    /// The limits.
    public static let fieldNotes = [
        "items": "1…50 lines; each label 1…100 bytes, each amount a decimal string with at most the currency's minor digits",
        "currency": "an active ISO 4217 code, e.g. EUR, USD, JPY",
        "totalLabel": "1…100 bytes",
    ]

    /// Every field, and a total above zero.
    public func validate() throws(BridgeError) {
        guard CurrencyCodes.isKnown(currency) else {
            throw .field(.invalidPayload, path: "payload.currency", "\"\(currency.prefix(16))\" is not an ISO 4217 currency code")
        }
        guard (1...50).contains(items.count) else { throw .field(.invalidPayload, path: "payload.items", "must hold 1…50 lines") }
        for (index, item) in items.enumerated() {
            try FieldCheck.nonEmpty(item.label, "payload.items[\(index)].label", maxBytes: 100)
            _ = try Self.minorUnits(item.amount, currency: currency, path: "payload.items[\(index)].amount")
        }
        if let totalLabel { try FieldCheck.nonEmpty(totalLabel, "payload.totalLabel", maxBytes: 100) }
        _ = try total()
    }

    /// The exact sum of the lines, as a decimal string in the currency's minor units.
    public func total() throws(BridgeError) -> String {
        var sum: Int64 = 0
        for (index, item) in items.enumerated() {
            let (next, overflow) = sum.addingReportingOverflow(
                try Self.minorUnits(item.amount, currency: currency, path: "payload.items[\(index)].amount"))
            if overflow { throw .field(.invalidPayload, path: "payload.items", "the total is too large") }
            sum = next
        }
        guard sum > 0 else { throw .field(.invalidPayload, path: "payload.items", "the total must be above zero") }
        return Self.format(sum, currency: currency)
    }

    /// `amount` in minor units (cents), or `invalid_payload` naming `path`.
    static func minorUnits(_ amount: String, currency: String, path: String) throws(BridgeError) -> Int64 {
        let digits = CurrencyCodes.minorUnits(currency)
        var text = Substring(amount)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts.first ?? ""
        let fraction = parts.count == 2 ? parts[1] : ""
        let isDigits = { (part: Substring) in part.utf8.allSatisfy { (48...57).contains($0) } }
        guard parts.count <= 2, (1...10).contains(whole.count), isDigits(whole), isDigits(fraction),
            parts.count == 1 || (!fraction.isEmpty && fraction.count <= digits)
        else {
            let example = digits == 0 ? "\"500\"" : "\"12.\(String(repeating: "5", count: digits))\""
            throw .field(
                .invalidPayload, path: path,
                "\"\(amount.prefix(32))\" is not an amount in \(currency) (a decimal string with at most \(digits) digits after the point, e.g. \(example))"
            )
        }
        var value = Int64(whole)!
        for _ in 0..<digits { value *= 10 }
        var scaled = Int64(fraction.isEmpty ? "0" : String(fraction))!
        for _ in fraction.count..<digits { scaled *= 10 }
        value += scaled
        return negative ? -value : value
    }

    static func format(_ minor: Int64, currency: String) -> String {
        let digits = CurrencyCodes.minorUnits(currency)
        var scale: Int64 = 1
        for _ in 0..<digits { scale *= 10 }
        let whole = minor / scale
        guard digits > 0 else { return String(whole) }
        let fraction = String(minor % scale)
        return "\(whole).\(String(repeating: "0", count: digits - fraction.count))\(fraction)"
    }
}

/// How a payment request ended.
public enum PaymentStatus: String, Codable, Sendable, SchemaEnum {
    /// The person authorised it; the token is for the merchant's payment processor.
    case authorized
    /// The person closed the sheet.
    case cancelled
}

/// The result of `payments.request`.
public struct PaymentResult: Codable, Sendable, Hashable {
    /// `authorized` or `cancelled`.
    public var status: PaymentStatus
    /// The payment token, when authorised.
    public var token: PaymentToken?
    /// The total asked for, as a decimal string.
    public var total: String
    /// ISO 4217.
    public var currency: String
    /// Creates a result.
    public init(status: PaymentStatus, token: PaymentToken? = nil, total: String, currency: String) {
        self.status = status
        self.token = token
        self.total = total
        self.currency = currency
    }
}

/// An authorised payment (PassKit's `PKPaymentToken`), for the merchant's payment processor.
public struct PaymentToken: Codable, Sendable, Hashable {
    /// The encrypted payment data, base64.
    public var paymentData: String
    /// The transaction's id.
    public var transactionIdentifier: String
    /// The card's network, e.g. `visa`.
    public var network: String
    /// What the sheet showed for the card, e.g. `Visa 1234`.
    public var displayName: String
    /// Creates a token.
    public init(paymentData: String, transactionIdentifier: String, network: String, displayName: String) {
        self.paymentData = paymentData
        self.transactionIdentifier = transactionIdentifier
        self.network = network
        self.displayName = displayName
    }
}
