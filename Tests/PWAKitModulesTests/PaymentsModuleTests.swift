import Foundation
import PWAKitCore
import PWAKitModules
import Testing

@Suite("payments: every field checked with its path; approved, cancelled, declined; the merchant from the configuration")
struct PaymentsModuleTests {
    static let merchant = PaymentsSection(
        merchantId: "merchant.dev.pwakit.coffee", countryCode: "DE", merchantName: "Corner Coffee",
        supportedNetworks: ["visa", "masterCard"])

    func harness(merchant: PaymentsSection? = Self.merchant) async throws -> ModuleHarness {
        try await ModuleHarness(features: FeatureFlags(payments: true), payments: merchant)
    }

    static let order: JSONValue = [
        "items": [["label": "Flat white", "amount": "3.40"], ["label": "Croissant", "amount": "2.10"]], "currency": "EUR",
    ]

    @Test("approved: a token for the exact total, and the simulator says what it did")
    func approved() async throws {
        let harness = try await harness()
        let availability = try #require(try await harness.data("payments", "canMakePayments"))
        #expect(availability["canMakePayments"] == .bool(true))
        #expect(availability["networks"] == ["visa", "masterCard"])
        let result = try #require(try await harness.data("payments", "request", Self.order))
        #expect(result["status"] == "authorized")
        #expect(result["total"] == "5.50")
        #expect(result["currency"] == "EUR")
        let token = try #require(result["token"])
        #expect(token["network"] == "visa")
        let data = try #require(token["paymentData"]?.stringValue.flatMap { Data(base64Encoded: $0) })
        let decoded = try JSONParser.parse(data)
        #expect(decoded["simulated"] == .bool(true))
        #expect(decoded["merchantId"] == "merchant.dev.pwakit.coffee")
        #expect(await harness.device.log.contains("payments.request 5.50 EUR approve"))
    }

    @Test("cancelled is an answer; declined is payments.failed; no sensor is payments.unavailable")
    func outcomes() async throws {
        let harness = try await harness()
        await harness.device.scriptPayments([.cancel, .fail])
        let cancelled = try #require(try await harness.data("payments", "request", Self.order))
        #expect(cancelled["status"] == "cancelled")
        #expect(cancelled["token"] == nil)
        #expect(try await harness.code("payments", "request", Self.order) == "payments.failed")
        await harness.device.scriptPayments([], available: false)
        #expect(try await harness.code("payments", "request", Self.order) == "payments.unavailable")
        let availability = try #require(try await harness.data("payments", "canMakePayments"))
        #expect(availability["canMakePayments"] == .bool(false))
    }

    @Test("without a payments section: payments.not_configured; with the flag off: unavailable")
    func configuration() async throws {
        let unconfigured = try await harness(merchant: nil)
        #expect(try await unconfigured.code("payments", "request", Self.order) == "payments.not_configured")
        #expect(try await unconfigured.code("payments", "canMakePayments") == "payments.not_configured")
        let off = try await ModuleHarness(payments: Self.merchant)
        #expect(try await off.code("payments", "request", Self.order) == "unavailable")
    }

    static let malformedPayloads: [(String, String)] = [
        (#"{"items":[{"label":"A","amount":"1.00"}],"currency":"EURO"}"#, "payload.currency"),
        (#"{"items":[{"label":"A","amount":"1.00"}],"currency":"XYZ"}"#, "payload.currency"),
        (#"{"items":[{"label":"A","amount":"1.00"}],"currency":"eur"}"#, "payload.currency"),
        (#"{"items":[],"currency":"EUR"}"#, "payload.items"),
        (#"{"items":[{"label":"","amount":"1.00"}],"currency":"EUR"}"#, "payload.items[0].label"),
        (#"{"items":[{"label":"A","amount":"1.005"}],"currency":"EUR"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":"1.5"}],"currency":"JPY"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":"1e3"}],"currency":"EUR"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":" 1.00"}],"currency":"EUR"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":"1."}],"currency":"EUR"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":".5"}],"currency":"EUR"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":"12345678901"}],"currency":"EUR"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":1.5}],"currency":"EUR"}"#, "payload.items[0].amount"),
        (#"{"items":[{"label":"A","amount":"1.00"},{"label":"B","amount":"-2.00"}],"currency":"EUR"}"#, "payload.items"),
        (#"{"items":[{"label":"A","amount":"0"}],"currency":"EUR"}"#, "payload.items"),
        (#"{"items":[{"label":"A","amount":"1.00"}],"currency":"EUR","totalLabel":""}"#, "payload.totalLabel"),
        (#"{"items":[{"label":"A","amount":"1.00"}]}"#, "payload.currency"),
        (#"{"currency":"EUR"}"#, "payload.items"),
    ]

    @Test("every malformed field is invalid_payload naming it")
    func malformed() async throws {
        // NB: one harness, the cases in turn: a harness per case in parallel starved the machine in CI.
        let harness = try await harness()
        for (payload, path) in Self.malformedPayloads {
            let value = try JSONParser.parse(payload)
            let response = try await harness.call("payments", "request", value)
            #expect(response["code"] == "invalid_payload", "\(payload): \(JSONSerializer.serialize(response))")
            #expect(response["details"]?["path"]?.stringValue == path, "\(payload)")
        }
    }

    @Test("oversized: 51 lines, a 101-byte label")
    func oversized() async throws {
        let harness = try await harness()
        let many: JSONValue = [
            "items": .array(Array(repeating: ["label": "A", "amount": "0.01"], count: 51)), "currency": "EUR",
        ]
        #expect(try await harness.path("payments", "request", many) == "payload.items")
        let long: JSONValue = [
            "items": [["label": .string(String(repeating: "x", count: 101)), "amount": "1.00"]], "currency": "EUR",
        ]
        #expect(try await harness.path("payments", "request", long) == "payload.items[0].label")
    }

    @Test("amounts are exact decimals in the currency's minor units, discounts included")
    func exactTotals() async throws {
        let harness = try await harness()
        let yen: JSONValue = [
            "items": [["label": "Ramen", "amount": "980"], ["label": "Gyoza", "amount": "420"]], "currency": "JPY",
        ]
        #expect(try await harness.data("payments", "request", yen)?["total"] == "1400")
        let dinar: JSONValue = [
            "items": [["label": "Tea", "amount": "0.125"], ["label": "Cake", "amount": "1.5"]], "currency": "KWD",
        ]
        #expect(try await harness.data("payments", "request", dinar)?["total"] == "1.625")
        let tenths: JSONValue = [
            "items": .array(
                Array(repeating: ["label": "Dime", "amount": "0.10"], count: 3) + [["label": "Discount", "amount": "-0.05"]]),
            "currency": "USD",
        ]
        #expect(try await harness.data("payments", "request", tenths)?["total"] == "0.25")
    }

    @Test("the payments section is validated with paths; the flag needs the section")
    func validation() throws {
        func issues(_ payments: String, features: String = #"{"payments": true}"#) -> [String] {
            let document =
                #"{"version":1,"app":{"name":"A","bundleId":"com.example.a","startUrl":"https://a.example.com/"},"origins":{"allowed":["a.example.com"]},"features":\#(features)\#(payments)}"#
            return ConfigurationValidator().validate(Data(document.utf8)).issues.filter { $0.severity == .error }.map(\.path)
        }
        #expect(issues("") == ["payments"])
        #expect(issues("", features: #"{"payments": false}"#) == [])
        #expect(issues(#","payments":{"merchantId":"merchant.com.example","countryCode":"US","merchantName":"Shop"}"#) == [])
        #expect(
            issues(#","payments":{"merchantId":"com.example","countryCode":"US","merchantName":"Shop"}"#) == [
                "payments.merchantId"
            ])
        #expect(
            issues(#","payments":{"merchantId":"merchant.","countryCode":"US","merchantName":"Shop"}"#) == ["payments.merchantId"]
        )
        #expect(
            issues(#","payments":{"merchantId":"merchant.a","countryCode":"usa","merchantName":"Shop"}"#) == [
                "payments.countryCode"
            ])
        #expect(
            issues(#","payments":{"merchantId":"merchant.a","countryCode":"US","merchantName":" "}"#) == ["payments.merchantName"]
        )
        #expect(issues(#","payments":{"merchantId":"merchant.a","countryCode":"US"}"#) == ["payments.merchantName"])
        #expect(
            issues(
                #","payments":{"merchantId":"merchant.a","countryCode":"US","merchantName":"S","supportedNetworks":["visa","bitcoin"]}"#
            )
                == ["payments.supportedNetworks[1]"])
        #expect(
            issues(#","payments":{"merchantId":"merchant.a","countryCode":"US","merchantName":"S","supportedNetworks":[]}"#)
                == ["payments.supportedNetworks"])
        // A configuration with payments round-trips through its JSON.
        let configuration = PWAConfiguration(
            app: AppSection(name: "A", bundleId: "com.example.a", startUrl: "https://a.example.com/"),
            origins: OriginsSection(allowed: ["a.example.com"]), features: FeatureFlags(payments: true), payments: Self.merchant)
        #expect(ConfigurationValidator().validate(configuration).isValid)
        let decoded = try JSONDecoder().decode(PWAConfiguration.self, from: configuration.encodedJSON())
        #expect(decoded == configuration)
    }
}
