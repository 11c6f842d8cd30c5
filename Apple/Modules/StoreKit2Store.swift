#if canImport(StoreKit)
    import Foundation
    public import PWAKitCore
    public import PWAKitModules
    import StoreKit

    /// The ``StoreProvider`` over StoreKit 2.
    ///
    /// Only transactions that StoreKit verified count: an unverified purchase fails with
    /// `iap.failed` and unverified entitlements are left out. A verified purchase is finished at
    /// once, so the page should record what it bought from the result (or read
    /// `getEntitlements`). Call ``observeTransactionUpdates()`` at launch for purchases that
    /// complete later (Ask to Buy, renewals, other devices).
    public struct StoreKit2Store: StoreProvider {
        /// A store over the App Store.
        public init() {}

        /// `Product.products(for:)`; products of a kind this adapter does not know are left out.
        public func products(ids: [String]) async throws -> [PWAKitModules.Product] {
            do {
                return try await StoreKit.Product.products(for: ids).compactMap(Self.product)
            } catch {
                throw Self.unavailable(error)
            }
        }

        /// `Product.purchase()`; the user cancelling and pending approval are outcomes, not errors.
        public func purchase(productID: String) async throws -> PurchaseResult {
            guard AppStore.canMakePayments else {
                throw BridgeError(.module("iap", "unavailable"), "in-app purchases are disabled on this device")
            }
            let found: StoreKit.Product?
            do {
                found = try await StoreKit.Product.products(for: [productID]).first
            } catch {
                throw Self.unavailable(error)
            }
            guard let product = found else {
                throw BridgeError(.module("iap", "product_not_found"), "no product has the id \(productID)")
            }
            let result: StoreKit.Product.PurchaseResult
            do {
                result = try await product.purchase()
            } catch StoreKitError.userCancelled {
                return PurchaseResult(status: .cancelled)
            } catch StoreKit.Product.PurchaseError.productUnavailable {
                throw BridgeError(.module("iap", "product_not_found"), "the product \(productID) is not for sale")
            } catch StoreKit.Product.PurchaseError.purchaseNotAllowed {
                throw BridgeError(.module("iap", "unavailable"), "purchases are not allowed on this device")
            } catch StoreKitError.networkError(let error) {
                throw BridgeError(.module("iap", "unavailable"), "the App Store cannot be reached: \(error.localizedDescription)")
            } catch {
                throw BridgeError(.module("iap", "failed"), error.localizedDescription)
            }
            switch result {
            case .success(.verified(let transaction)):
                await transaction.finish()
                return PurchaseResult(status: .purchased, transaction: Self.entitlement(transaction))
            case .success(.unverified(_, let error)):
                throw BridgeError(
                    .module("iap", "failed"), "the App Store could not verify the purchase: \(error.localizedDescription)")
            case .userCancelled:
                return PurchaseResult(status: .cancelled)
            case .pending:
                return PurchaseResult(status: .pending)
            @unknown default:
                throw BridgeError(.module("iap", "failed"), "the App Store returned an unknown purchase result")
            }
        }

        /// `AppStore.sync()`, then the entitlements; declining to sign in keeps the ones known.
        public func restore() async throws -> [Entitlement] {
            do {
                try await AppStore.sync()
            } catch StoreKitError.userCancelled {
                // The user declined to sign in; what this device knows still stands.
            } catch {
                throw Self.unavailable(error)
            }
            return try await entitlements()
        }

        /// `Transaction.currentEntitlements`, verified ones only.
        public func entitlements() async throws -> [Entitlement] {
            var entitlements: [Entitlement] = []
            for await result in StoreKit.Transaction.currentEntitlements {
                if case .verified(let transaction) = result { entitlements.append(Self.entitlement(transaction)) }
            }
            return entitlements
        }

        /// Finishes verified transactions that arrive outside ``purchase(productID:)``; keep the
        /// task for the app's lifetime.
        ///
        /// The page learns of them through `getEntitlements`. A consumable approved later (Ask to
        /// Buy) is finished here too, so an app selling consumables credits them on its server
        /// (App Store Server Notifications).
        public static func observeTransactionUpdates() -> Task<Void, Never> {
            Task.detached {
                for await update in StoreKit.Transaction.updates {
                    if case .verified(let transaction) = update { await transaction.finish() }
                }
            }
        }

        static func product(_ product: StoreKit.Product) -> PWAKitModules.Product? {
            let type: PWAKitModules.ProductType
            switch product.type {
            case .consumable: type = .consumable
            case .nonConsumable: type = .nonConsumable
            case .autoRenewable: type = .autoRenewable
            case .nonRenewable: type = .nonRenewable
            default: return nil
            }
            return PWAKitModules.Product(
                id: product.id, displayName: product.displayName, description: product.description,
                price: NSDecimalNumber(decimal: product.price).doubleValue, displayPrice: product.displayPrice, type: type)
        }

        static func entitlement(_ transaction: StoreKit.Transaction) -> Entitlement {
            Entitlement(
                productId: transaction.productID, transactionId: String(transaction.id),
                purchaseDate: ISODate(transaction.purchaseDate), expirationDate: transaction.expirationDate.map { ISODate($0) })
        }

        static func unavailable(_ error: any Error) -> BridgeError {
            BridgeError(.module("iap", "unavailable"), "the App Store cannot be reached: \(error.localizedDescription)")
        }
    }
#endif
