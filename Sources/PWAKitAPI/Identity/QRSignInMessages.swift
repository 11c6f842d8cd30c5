public import Foundation

/// What a sign-in QR code holds: `pwakit://identity/qr?v=1&origin=…&session=…&key=…&nonce=…` — the
/// origin of the page that shows it, the sign-in session, the SHA-256 (base64url) of the page's
/// ephemeral public key, and the session's nonce.
public struct QRSignInPayload: Hashable, Sendable {
    /// The page's origin (`https://example.com`), shown to the person before they approve.
    public var origin: String
    /// The sign-in session's id.
    public var session: String
    /// SHA-256 of the page's ephemeral P-256 public key (uncompressed, 65 bytes), base64url.
    public var keyHash: String
    /// The session's nonce.
    public var nonce: String

    /// Creates a payload.
    public init(origin: String, session: String, keyHash: String, nonce: String) {
        self.origin = origin
        self.session = session
        self.keyHash = keyHash
        self.nonce = nonce
    }

    /// The text the code encodes.
    public var text: String {
        var components = URLComponents()
        components.scheme = "pwakit"
        components.host = "identity"
        components.path = "/qr"
        components.queryItems = [
            URLQueryItem(name: "v", value: "1"), URLQueryItem(name: "origin", value: origin),
            URLQueryItem(name: "session", value: session), URLQueryItem(name: "key", value: keyHash),
            URLQueryItem(name: "nonce", value: nonce),
        ]
        // NB: URLComponents leaves ':' and '/' of the origin as they are; both are allowed in a query.
        return components.string ?? ""
    }

    /// Reads a scanned text; the error names the part at fault.
    public init(text: String) throws(ProofFormatError) {
        guard text.utf8.count <= 512 else { throw ProofFormatError(part: "code", "is longer than 512 bytes") }
        guard let components = URLComponents(string: text), components.scheme == "pwakit", components.host == "identity",
            components.path == "/qr"
        else {
            throw ProofFormatError(part: "code", "is not a PWAKit sign-in code (pwakit://identity/qr?…)")
        }
        var values: [String: String] = [:]
        for item in components.queryItems ?? [] {
            guard values[item.name] == nil else { throw ProofFormatError(part: item.name, "appears twice") }
            values[item.name] = item.value ?? ""
        }
        guard values["v"] == "1" else { throw ProofFormatError(part: "v", "must be 1") }
        guard let origin = values["origin"], let url = URL(string: origin), ["http", "https"].contains(url.scheme ?? ""),
            url.host != nil, url.path.isEmpty, url.query == nil, origin.utf8.count <= 200
        else {
            throw ProofFormatError(part: "origin", "must be an http or https origin")
        }
        guard let session = values["session"], (1...64).contains(session.utf8.count),
            session.utf8.allSatisfy(DeviceProof.isTokenByte)
        else {
            throw ProofFormatError(part: "session", "must be 1 to 64 characters of A-Z a-z 0-9 - _")
        }
        guard let key = values["key"], key.utf8.count == 43, key.utf8.allSatisfy(DeviceProof.isTokenByte) else {
            throw ProofFormatError(part: "key", "must be a SHA-256, base64url")
        }
        guard let nonce = values["nonce"], (16...64).contains(nonce.utf8.count), nonce.utf8.allSatisfy(DeviceProof.isTokenByte)
        else {
            throw ProofFormatError(part: "nonce", "must be 16 to 64 characters of A-Z a-z 0-9 - _")
        }
        self.init(origin: origin, session: session, keyHash: key, nonce: nonce)
    }
}

/// The body of `POST /v1/identity/qr/sessions`: a sign-in page asks for a code.
public struct CreateQRSessionRequest: Codable, Hashable, Sendable {
    /// SHA-256 of the page's ephemeral P-256 public key (uncompressed, 65 bytes), base64url.
    public var keyHash: String

    /// Creates a request.
    public init(keyHash: String) { self.keyHash = keyHash }
}

/// A sign-in code for a page to show.
public struct QRSessionResponse: Codable, Hashable, Sendable {
    /// The session id.
    public var id: String
    /// The nonce the page signs when it redeems.
    public var nonce: String
    /// When the code stops working (the page asks for a new one).
    public var expiresAt: Date
    /// The text the code encodes (``QRSignInPayload``).
    public var payload: String
    /// The code as an SVG drawing.
    public var svg: String

    /// Creates a response.
    public init(id: String, nonce: String, expiresAt: Date, payload: String, svg: String) {
        self.id = id
        self.nonce = nonce
        self.expiresAt = expiresAt
        self.payload = payload
        self.svg = svg
    }
}

/// The body of `POST /v1/identity/qr/sessions/{id}/redeem`: the page proves it holds the key whose
/// hash the code carries.
public struct RedeemQRRequest: Codable, Hashable, Sendable {
    /// The page's P-256 public key, uncompressed (65 bytes), base64url.
    public var publicKey: String
    /// Its ECDSA P-256 signature (r‖s, 64 bytes, base64url) over ``IdentityStatement/qrRedemption(session:nonce:)``.
    public var signature: String

    /// Creates a redemption.
    public init(publicKey: String, signature: String) {
        self.publicKey = publicKey
        self.signature = signature
    }
}

/// A sign-in session's requesting context, as the device shows it before the person approves.
public struct QRContextResponse: Codable, Hashable, Sendable {
    /// The session id.
    public var id: String
    /// The origin of the page that asked.
    public var origin: String
    /// The address the page's browser asked from.
    public var requesterAddress: String
    /// The page's browser.
    public var requesterAgent: String
    /// When the code was made.
    public var createdAt: Date
    /// When it stops working.
    public var expiresAt: Date

    /// Creates a context.
    public init(id: String, origin: String, requesterAddress: String, requesterAgent: String, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.origin = origin
        self.requesterAddress = requesterAddress
        self.requesterAgent = requesterAgent
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The body of `POST /v1/identity/device/qr/{id}/answer`.
public struct AnswerQRRequest: Codable, Hashable, Sendable {
    /// Approve or deny.
    public var decision: TransactionDecision
    /// The key hash the scanned code carried.
    public var keyHash: String
    /// The nonce the scanned code carried.
    public var nonce: String
    /// The authenticator that signed (approvals).
    public var authenticator: AuthenticatorKind?
    /// Its signature over ``IdentityStatement/qrApproval(session:nonce:keyHash:origin:)``, base64url (approvals).
    public var signature: String?

    /// Creates an answer.
    public init(
        decision: TransactionDecision, keyHash: String, nonce: String, authenticator: AuthenticatorKind? = nil,
        signature: String? = nil
    ) {
        self.decision = decision
        self.keyHash = keyHash
        self.nonce = nonce
        self.authenticator = authenticator
        self.signature = signature
    }
}

/// Where a sign-in code stands: `pending` (a redemption still waiting), `approved` or `denied`.
public struct QRStatusResponse: Codable, Hashable, Sendable {
    /// `pending`.
    public var status: String

    /// Creates an answer.
    public init(status: String = "pending") { self.status = status }
}
