#if canImport(PassKit) && os(iOS)
    import Foundation
    import PassKit
    import PWAKitCore
    public import PWAKitModules

    /// The ``PaymentsProvider`` over PassKit: `PKPaymentAuthorizationController` (no view
    /// controller needed, so it works from the bridge), with the merchant from the app's
    /// configuration. The app needs the Apple Pay capability with the same merchant identifier.
    ///
    /// The sheet's outcome maps to the module's: authorised → the `PKPaymentToken` (its
    /// `paymentData` base64, for the merchant's processor), closed → `cancelled`, a sheet that
    /// cannot be presented → `payments.failed`.
    public final class PassKitPayments: NSObject, PaymentsProvider, @unchecked Sendable {
        /// A provider.
        public override init() {}

        /// `canMakePayments(usingNetworks:)` for the configured networks.
        public func availability(networks: [String]) async -> PaymentsAvailability {
            let known = networks.compactMap(Self.network)
            return PaymentsAvailability(
                canMakePayments: PKPaymentAuthorizationController.canMakePayments(usingNetworks: known), networks: networks)
        }

        /// Presents the sheet for `sheet` and waits for the person.
        public func authorize(_ sheet: PaymentSheet) async throws -> PaymentToken? {
            let request = PKPaymentRequest()
            request.merchantIdentifier = sheet.merchantId
            request.countryCode = sheet.countryCode
            request.currencyCode = sheet.currency
            request.merchantCapabilities = .threeDSecure
            request.supportedNetworks = sheet.networks.compactMap(Self.network)
            request.paymentSummaryItems = (sheet.items + [sheet.total]).map {
                PKPaymentSummaryItem(label: $0.label, amount: NSDecimalNumber(string: $0.amount, locale: Locale(identifier: "en_US_POSIX")))
            }
            let controller = PKPaymentAuthorizationController(paymentRequest: request)
            let delegate = SheetDelegate()
            controller.delegate = delegate
            return try await withCheckedThrowingContinuation { continuation in
                delegate.finish = { continuation.resume(with: $0) }
                controller.present { presented in
                    if !presented {
                        delegate.complete(.failure(BridgeError(.module("payments", "failed"), "the payment sheet could not be shown")))
                    }
                }
            }
        }

        static func network(_ name: String) -> PKPaymentNetwork? {
            switch name {
            case "amex": .amex
            case "cartesBancaires": .cartesBancaires
            case "discover": .discover
            case "eftpos": .eftpos
            case "electron": .electron
            case "elo": .elo
            case "girocard": .girocard
            case "interac": .interac
            case "jcb": .JCB
            case "mada": .mada
            case "maestro": .maestro
            case "masterCard": .masterCard
            case "mir": .mir
            case "privateLabel": .privateLabel
            case "visa": .visa
            case "vPay": .vPay
            default: nil
            }
        }
    }

    /// Collects the sheet's outcome: the token once authorised, delivered when the sheet closes.
    private final class SheetDelegate: NSObject, PKPaymentAuthorizationControllerDelegate, @unchecked Sendable {
        var finish: ((Result<PaymentToken?, any Error>) -> Void)?
        private var token: PaymentToken?

        func complete(_ result: Result<PaymentToken?, any Error>) {
            finish?(result)
            finish = nil
        }

        func paymentAuthorizationController(
            _ controller: PKPaymentAuthorizationController, didAuthorizePayment payment: PKPayment,
            handler completion: @escaping (PKPaymentAuthorizationResult) -> Void
        ) {
            token = PaymentToken(
                paymentData: payment.token.paymentData.base64EncodedString(),
                transactionIdentifier: payment.token.transactionIdentifier,
                network: payment.token.paymentMethod.network?.rawValue ?? "",
                displayName: payment.token.paymentMethod.displayName ?? "")
            completion(PKPaymentAuthorizationResult(status: .success, errors: nil))
        }

        func paymentAuthorizationControllerDidFinish(_ controller: PKPaymentAuthorizationController) {
            controller.dismiss { [self] in complete(.success(token)) }
        }
    }
#endif
