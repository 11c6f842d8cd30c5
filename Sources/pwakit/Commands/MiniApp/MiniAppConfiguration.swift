import ArgumentParser
import PWAKitCore
import PWAKitModules

/// The configuration a mini-app runs under, built by the host (`miniapp open`, `launcher`):
/// its own `app://<appId>/` origin, the grants its catalog entry asks for plus `lifecycle`,
/// `session`, `platform` and `flags`, and payments (with the host's merchant) when it asks for them.
enum MiniAppConfiguration {
    static func make(
        appId: String, name: String, entryPath: String, permissions: [String], extraGrants: [String] = [],
        allowed: [String] = [], merchant: PaymentsSection
    ) -> PWAConfiguration {
        let grants = Set(permissions).union(["lifecycle", "session", "platform", "flags"]).union(extraGrants)
        let paymentsModule = PaymentsModule.moduleName
        let payments = grants.contains { $0 == paymentsModule || $0.hasPrefix(paymentsModule + ".") }
        var features = FeatureFlags()
        features.payments = payments
        return PWAConfiguration(
            app: AppSection(name: name, bundleId: "miniapp.\(appId)", startUrl: "app://\(appId)/\(entryPath)"),
            origins: OriginsSection(allowed: allowed, grants: [appId: grants.sorted()]), features: features,
            payments: payments ? merchant : nil)
    }
}

/// The merchant mini-apps' payments go to: the host app's own Apple Pay merchant.
struct MerchantOptions: ParsableArguments {
    @Option(name: .customLong("merchant-id"), help: "The merchant identifier mini-apps' payments go to.")
    var merchantId = "merchant.dev.pwakit.launcher"

    @Option(name: .customLong("merchant-name"), help: "The merchant's name on the payment sheet.")
    var merchantName = "PWAKit"

    @Option(name: .customLong("merchant-country"), help: "The merchant's country (ISO 3166-1 alpha-2).")
    var merchantCountry = "US"

    func validate() throws {
        guard PaymentsSection.isMerchantId(merchantId) else {
            throw ValidationError("--merchant-id must look like merchant.com.example.shop, got \(merchantId)")
        }
        guard PaymentsSection.isCountryCode(merchantCountry) else {
            throw ValidationError("--merchant-country must be two upper-case letters (US, DE), got \(merchantCountry)")
        }
        guard !merchantName.isEmpty, merchantName.utf8.count <= 100 else {
            throw ValidationError("--merchant-name must be 1…100 bytes")
        }
    }

    var section: PaymentsSection {
        PaymentsSection(
            merchantId: merchantId, countryCode: merchantCountry, merchantName: merchantName,
            supportedNetworks: ["amex", "masterCard", "visa"])
    }
}
