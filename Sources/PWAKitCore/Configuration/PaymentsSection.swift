/// The `payments` section: who is paid when a page asks for a payment (`payments.request`).
///
/// On Apple the merchant id is the Apple Pay merchant identifier in the app's entitlements;
/// `features.payments` turns the module on and needs this section.
public struct PaymentsSection: Codable, Sendable, Equatable {
    /// The merchant identifier, `merchant.` followed by a reverse-DNS name.
    public var merchantId: String
    /// The merchant's country, ISO 3166-1 alpha-2 (`US`, `DE`).
    public var countryCode: String
    /// The name on the payment sheet's total line.
    public var merchantName: String
    /// The card networks accepted (default: all that ``networks`` lists).
    public var supportedNetworks: [String]?

    /// The networks a configuration may name.
    public static let networks = [
        "amex", "cartesBancaires", "discover", "eftpos", "electron", "elo", "girocard", "interac", "jcb", "mada",
        "maestro", "masterCard", "mir", "privateLabel", "visa", "vPay",
    ]

    /// Creates a section.
    public init(merchantId: String, countryCode: String, merchantName: String, supportedNetworks: [String]? = nil) {
        self.merchantId = merchantId
        self.countryCode = countryCode
        self.merchantName = merchantName
        self.supportedNetworks = supportedNetworks
    }

    /// Whether `text` is a merchant identifier: `merchant.` and 1…120 letters, digits, dots and dashes.
    public static func isMerchantId(_ text: String) -> Bool {
        guard text.hasPrefix("merchant."), text.utf8.count <= 128 else { return false }
        let rest = text.dropFirst("merchant.".count)
        return !rest.isEmpty && !rest.hasPrefix(".") && !rest.hasSuffix(".")
            && rest.unicodeScalars.allSatisfy {
                ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || $0 == "." || $0 == "-"
            }
    }

    /// Whether `text` is two upper-case ASCII letters.
    public static func isCountryCode(_ text: String) -> Bool {
        text.utf8.count == 2 && text.utf8.allSatisfy { (65...90).contains($0) }
    }
}
