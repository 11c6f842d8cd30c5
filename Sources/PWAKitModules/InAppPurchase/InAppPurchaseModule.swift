public import PWAKitCore

/// `iap` [features.iap, off by default]: products, purchases and entitlements (StoreKit 2).
public struct InAppPurchaseModule: ActionModule {
    /// `iap`.
    public static let moduleName = "iap"
    /// `iap`.
    public static let featureFlag: String? = "iap"
    /// One line for the reference.
    public static let summary = "In-app purchase: product details, purchasing, restoring and current entitlements."
    /// The module's own error codes.
    public static let errorCodes = [
        ModuleErrorCode("iap.unavailable", "The store cannot be reached or purchases are disabled on this device."),
        ModuleErrorCode("iap.product_not_found", "No product has that id."),
        ModuleErrorCode("iap.failed", "The purchase failed (payment declined, verification failed)."),
    ]
    /// The actions.
    public static let actions = ModuleActions<InAppPurchaseModule>()
        .action(
            "getProducts", payload: ProductQuery.self, result: ProductList.self,
            summary: "The products with these ids; unknown ids are left out.",
            example: ProductQuery(productIds: ["com.example.pro.monthly"])
        ) { module, query, _ in
            ProductList(products: try await module.store.products(ids: query.productIds))
        }
        .action(
            "purchase", payload: PurchaseRequest.self, result: PurchaseResult.self,
            summary: "Buys a product; `status` is `cancelled` or `pending` for those normal outcomes, failures are errors.",
            example: PurchaseRequest(productId: "com.example.pro.monthly")
        ) { module, request, _ in
            var result = try await module.store.purchase(productID: request.productId)
            result.productId = request.productId
            return result
        }
        .action("restore", result: EntitlementList.self, summary: "Syncs with the store, then returns the entitlements.") {
            module, _ in
            EntitlementList(entitlements: try await module.store.restore())
        }
        .action("getEntitlements", result: EntitlementList.self, summary: "What the user owns now.") { module, _ in
            EntitlementList(entitlements: try await module.store.entitlements())
        }

    let store: any StoreProvider

    /// Creates the module over `store`.
    public init(store: any StoreProvider) {
        self.store = store
    }
}

/// The payload of `iap.getProducts`.
public struct ProductQuery: Codable, Sendable, Hashable, ValidatedPayload, SchemaFieldNotes {
    /// Product ids.
    public var productIds: [String]
    /// Creates a payload.
    public init(productIds: [String]) { self.productIds = productIds }
    /// The limits.
    public static let fieldNotes = ["productIds": "1…100 ids, each 1…256 bytes"]
    /// 1…100 non-empty ids.
    public func validate() throws(BridgeError) {
        if productIds.isEmpty || productIds.count > 100 {
            throw .field(.invalidPayload, path: "payload.productIds", "must hold 1…100 ids")
        }
        for (index, id) in productIds.enumerated() {
            try FieldCheck.nonEmpty(id, "payload.productIds[\(index)]", maxBytes: 256)
        }
    }
}

/// The payload of `iap.purchase`.
public struct PurchaseRequest: Codable, Sendable, Hashable, ValidatedPayload {
    /// The product to buy.
    public var productId: String
    /// Creates a payload.
    public init(productId: String) { self.productId = productId }
    /// 1…256 bytes.
    public func validate() throws(BridgeError) { try FieldCheck.nonEmpty(productId, "payload.productId", maxBytes: 256) }
}

/// A product for sale.
public struct Product: Codable, Sendable, Hashable {
    /// Its id.
    public var id: String
    /// Its localized name.
    public var displayName: String
    /// Its localized description.
    public var description: String
    /// Its price as a number.
    public var price: Double
    /// Its localized price, e.g. `€4.99`.
    public var displayPrice: String
    /// Its kind.
    public var type: ProductType
    /// The ISO 4217 code of ``price``'s currency (`USD` unless the store says otherwise).
    public var currencyCode: String

    /// Creates a product.
    public init(
        id: String, displayName: String, description: String, price: Double, displayPrice: String, type: ProductType,
        currencyCode: String = "USD"
    ) {
        self.id = id
        self.displayName = displayName
        self.description = description
        self.price = price
        self.displayPrice = displayPrice
        self.type = type
        self.currencyCode = currencyCode
    }

    private enum CodingKeys: String, CodingKey {
        case id, displayName, description, price, displayPrice, type, currencyCode
    }

    /// Decodes a product; a missing `currencyCode` is `USD` (scripts written before it existed).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            id: try container.decode(String.self, forKey: .id),
            displayName: try container.decode(String.self, forKey: .displayName),
            description: try container.decode(String.self, forKey: .description),
            price: try container.decode(Double.self, forKey: .price),
            displayPrice: try container.decode(String.self, forKey: .displayPrice),
            type: try container.decode(ProductType.self, forKey: .type),
            currencyCode: try container.decodeIfPresent(String.self, forKey: .currencyCode) ?? "USD")
    }
}

/// A product's kind (StoreKit's product types, in camelCase on the wire).
public enum ProductType: String, Codable, Sendable, SchemaEnum {
    /// Bought again and again.
    case consumable
    /// Bought once.
    case nonConsumable
    /// A subscription that renews.
    case autoRenewable
    /// A subscription that does not renew.
    case nonRenewable
}

/// The result of `iap.getProducts`.
public struct ProductList: Codable, Sendable, Hashable {
    /// The products found.
    public var products: [Product]
}

/// The result of `iap.purchase`.
public struct PurchaseResult: Codable, Sendable, Hashable {
    /// What happened.
    public var status: PurchaseStatus
    /// The transaction, when `status` is `purchased`.
    public var transaction: Entitlement?
    /// The product asked for.
    public var productId: String?
    /// The outcome as the PWAKit project's SDK reads it: `success` (purchased), `pending`,
    /// `cancelled`, and the ``transaction``'s id.
    public private(set) var success: Bool
    /// `status` is `pending`.
    public private(set) var pending: Bool
    /// `status` is `cancelled`.
    public private(set) var cancelled: Bool
    /// The transaction's id, when purchased.
    public private(set) var transactionId: String?

    /// Creates a result.
    public init(status: PurchaseStatus, transaction: Entitlement? = nil, productId: String? = nil) {
        self.status = status
        self.transaction = transaction
        self.productId = productId ?? transaction?.productId
        self.success = status == .purchased
        self.pending = status == .pending
        self.cancelled = status == .cancelled
        self.transactionId = transaction?.transactionId
    }
}

/// A purchase's outcome.
public enum PurchaseStatus: String, Codable, Sendable, SchemaEnum {
    /// Bought.
    case purchased
    /// Waiting for approval (Ask to Buy, strong customer authentication).
    case pending
    /// The user cancelled.
    case cancelled
}

/// Something the user owns.
public struct Entitlement: Codable, Sendable, Hashable {
    /// The product.
    public var productId: String
    /// The transaction.
    public var transactionId: String
    /// When it was bought.
    public var purchaseDate: ISODate
    /// When a subscription lapses.
    public var expirationDate: ISODate?

    /// Creates an entitlement.
    public init(productId: String, transactionId: String, purchaseDate: ISODate, expirationDate: ISODate? = nil) {
        self.productId = productId
        self.transactionId = transactionId
        self.purchaseDate = purchaseDate
        self.expirationDate = expirationDate
    }
}

/// The result of `iap.restore` and `getEntitlements`.
public struct EntitlementList: Codable, Sendable, Hashable {
    /// The entitlements.
    public var entitlements: [Entitlement]
    /// The ids of the products owned, each once, as the PWAKit project's SDK reads them.
    public private(set) var ownedProductIds: [String]

    /// Creates a result.
    public init(entitlements: [Entitlement]) {
        self.entitlements = entitlements
        var seen = Set<String>()
        self.ownedProductIds = entitlements.map(\.productId).filter { seen.insert($0).inserted }
    }
}

/// The app store.
public protocol StoreProvider: Sendable {
    /// Products by id; unknown ids are left out.
    func products(ids: [String]) async throws -> [Product]
    /// Buys `productID`; throw `iap.product_not_found` or `iap.failed` for failures.
    func purchase(productID: String) async throws -> PurchaseResult
    /// Syncs with the store; the entitlements afterwards.
    func restore() async throws -> [Entitlement]
    /// The current entitlements.
    func entitlements() async throws -> [Entitlement]
}
