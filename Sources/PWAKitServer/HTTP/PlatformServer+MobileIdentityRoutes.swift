import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import PWAKitAPI

extension PlatformServer {
    func addMobileIdentityRoutes(to table: RouteTable) {
        // MARK: The account's devices (bearer token)
        table.add(.post, "/v1/identity/devices") { request, _ in
            let caller = try await authenticate(request)
            let body = try await RequestReader.json(EnrolDeviceRequest.self, from: request, limit: configuration.maximumJSONBody)
            let device = try await mobileIdentity.enrol(body, userId: caller.userId)
            return try JSONResponse.make(mobileIdentity.response(device), status: .created)
        }
        table.add(.get, "/v1/identity/devices") { request, _ in
            let caller = try await authenticate(request)
            return try JSONResponse.make(
                try await storage.enrolledDevices(userId: caller.userId).map(mobileIdentity.response))
        }
        table.add(.delete, "/v1/identity/devices/{id}") { request, context in
            let caller = try await authenticate(request)
            let id = try context.parameters.require("id")
            guard id.utf8.count <= 64,
                try await storage.revokeEnrolledDevice(id: id, userId: caller.userId, reason: "revoked", now: environment.now())
            else {
                throw APIError(.notFound, .notFound, "no such enrolled device of yours")
            }
            return JSONResponse.noContent()
        }

        // MARK: The device itself (device proof)
        table.add(.get, "/v1/identity/device") { request, _ in
            let signed = try await deviceRequest(request)
            return try JSONResponse.make(mobileIdentity.response(signed.device))
        }
        table.add(.delete, "/v1/identity/device") { request, _ in
            let signed = try await deviceRequest(request)
            _ = try await storage.revokeEnrolledDevice(
                id: signed.device.id, userId: nil, reason: "deregistered", now: environment.now())
            return JSONResponse.noContent()
        }
        table.add(.post, "/v1/identity/device/session") { request, _ in
            let signed = try await deviceRequest(request)
            _ = try await personProof(request, signed)
            return try JSONResponse.make(try await mobileIdentity.session(for: signed.device))
        }
        table.add(.put, "/v1/identity/device/authenticators/{kind}") { request, context in
            let kind = try authenticatorKind(context)
            let signed = try await deviceRequest(request)
            // NB: a new PIN needs the current one; a biometric key needs the PIN too.
            _ = try await personProof(request, signed, required: .pin)
            let body = try RequestReader.decode(AuthenticatorKeyRequest.self, from: signed.body)
            let device = try await mobileIdentity.setKey(kind, body, device: signed.device)
            return try JSONResponse.make(mobileIdentity.response(device))
        }
        table.add(.delete, "/v1/identity/device/authenticators/{kind}") { request, context in
            let kind = try authenticatorKind(context)
            guard kind == .biometric else {
                throw APIError.invalid("kind", "the PIN is every device's fallback and cannot be removed")
            }
            let signed = try await deviceRequest(request)
            guard try await storage.setAuthenticatorKey(deviceId: signed.device.id, kind: kind.rawValue, publicKey: nil) else {
                throw DeviceProofVerifier.deregistered(signed.device)
            }
            return JSONResponse.noContent()
        }
        table.add(.get, "/v1/identity/device/transactions") { request, _ in
            let signed = try await deviceRequest(request)
            let pending = try await storage.pendingIdentityTransactions(userId: signed.device.userId, now: environment.now())
            return try JSONResponse.make(
                PendingTransactionsResponse(transactions: pending.map { .init(id: $0.id, expiresAt: $0.expiresAt) }))
        }
        table.add(.get, "/v1/identity/device/transactions/{id}") { request, context in
            let id = try context.parameters.require("id")
            let signed = try await deviceRequest(request)
            let transaction = try await mobileIdentity.pendingTransaction(id: id, device: signed.device)
            return try JSONResponse.make(
                TransactionDetailsResponse(
                    id: transaction.id, appId: transaction.appId, message: transaction.message, data: transaction.data,
                    requesterAddress: transaction.requesterAddress, requesterAgent: transaction.requesterAgent,
                    nonce: transaction.nonce, createdAt: transaction.createdAt, expiresAt: transaction.expiresAt))
        }
        table.add(.post, "/v1/identity/device/transactions/{id}/answer") { request, context in
            let id = try context.parameters.require("id")
            let signed = try await deviceRequest(request)
            let body = try RequestReader.decode(AnswerTransactionRequest.self, from: signed.body)
            return try JSONResponse.make(try await mobileIdentity.answer(body, id: id, device: signed.device))
        }

        // MARK: Requesters (an app backend's credential)
        table.add(.post, "/v1/identity/transactions") { request, context in
            try await asAppBackend(request, context: context, throttle: "backend", doing: "requests") { credential in
                let body = try await RequestReader.json(
                    CreateTransactionRequest.self, from: request, limit: configuration.maximumJSONBody)
                let agent = String((request.headers[.userAgent] ?? "unknown").prefix(512))
                let transaction = try await mobileIdentity.createTransaction(
                    body, appId: credential.appId, callerAddress: clientAddress(request, context: context),
                    callerAgent: agent)
                return try JSONResponse.make(
                    CreatedTransactionResponse(
                        id: transaction.id, number: transaction.number, expiresAt: transaction.expiresAt),
                    status: .created)
            }
        }
        table.add(.get, "/v1/identity/transactions/{id}") { request, context in
            let id = try context.parameters.require("id")
            return try await asAppBackend(request, context: context, throttle: "backend", doing: "requests") { credential in
                try JSONResponse.make(try await mobileIdentity.transactionStatus(id: id, appId: credential.appId))
            }
        }
    }

    /// A request signed by an enrolled device: the device and the body its proof covers.
    struct DeviceSignedRequest {
        var device: EnrolledDeviceRecord
        var body: ByteBuffer
        var proof: DeviceProof
        var target: String
    }

    func deviceRequest(_ request: Request) async throws -> DeviceSignedRequest {
        let body = try await RequestReader.collect(request, limit: configuration.maximumJSONBody)
        let target = request.head.path ?? "/"
        let verified = try await mobileIdentity.proofs.verify(
            header: request.headers[.deviceProof], method: request.method.rawValue, target: target,
            body: body.readableBytesView)
        return DeviceSignedRequest(device: verified.device, body: body, proof: verified.proof, target: target)
    }

    func personProof(_ request: Request, _ signed: DeviceSignedRequest, required: AuthenticatorKind? = nil) async throws
        -> AuthenticatorKind
    {
        try await mobileIdentity.verifyPerson(
            header: request.headers[.userProof], device: signed.device, deviceProof: signed.proof,
            method: request.method.rawValue, target: signed.target, body: signed.body.readableBytesView, required: required)
    }

    func authenticatorKind(_ context: ServerRequestContext) throws -> AuthenticatorKind {
        guard let kind = AuthenticatorKind(rawValue: try context.parameters.require("kind")) else {
            throw APIError.invalid("kind", "must be pin or biometric")
        }
        return kind
    }

}

extension HTTPField.Name {
    static let deviceProof = Self(DeviceProof.headerName)!
    static let userProof = Self(DeviceProof.userHeaderName)!
}

extension PlatformServer {
    func addQRSignInRoutes(to table: RouteTable) {
        table.add(.get, "/v1/identity/qr") { _, _ in
            Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                    .contentSecurityPolicy:
                        "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'",
                    .xFrameOptions: "DENY",
                ], body: .init(byteBuffer: ByteBuffer(string: QRSignInPage.html)))
        }
        table.add(.get, "/v1/identity/qr/page.js") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: "no-cache"],
                body: .init(byteBuffer: ByteBuffer(string: QRSignInPage.script)))
        }
        table.add(.post, "/v1/identity/qr/sessions") { request, context in
            let body = try await RequestReader.json(
                CreateQRSessionRequest.self, from: request, limit: configuration.maximumJSONBody)
            let answer = try await qrSignIn.create(
                body, origin: try requestOrigin(request), address: clientAddress(request, context: context),
                agent: String((request.headers[.userAgent] ?? "unknown").prefix(512)))
            return try JSONResponse.make(answer, status: .created)
        }
        table.add(.post, "/v1/identity/qr/sessions/{id}/redeem") { request, context in
            let id = try context.parameters.require("id")
            let wait = request.uri.queryParameters.get("wait").map { Int($0) ?? -1 } ?? 0
            guard (0...configuration.qrRedeemMaximumWait).contains(wait) else {
                throw APIError.invalid("wait", "must be 0 to \(configuration.qrRedeemMaximumWait) seconds")
            }
            let body = try await RequestReader.json(RedeemQRRequest.self, from: request, limit: configuration.maximumJSONBody)
            switch try await qrSignIn.redeem(body, id: id, wait: wait) {
            case .tokens(let tokens): return try JSONResponse.make(tokens)
            case .pending: return try JSONResponse.make(QRStatusResponse(status: "pending"), status: .accepted)
            }
        }
        table.add(.get, "/v1/identity/device/qr/{id}") { request, context in
            let id = try context.parameters.require("id")
            _ = try await deviceRequest(request)
            let session = try await qrSignIn.pending(id: id)
            return try JSONResponse.make(
                QRContextResponse(
                    id: session.id, origin: session.origin, requesterAddress: session.requesterAddress,
                    requesterAgent: session.requesterAgent, createdAt: session.createdAt, expiresAt: session.expiresAt))
        }
        table.add(.post, "/v1/identity/device/qr/{id}/answer") { request, context in
            let id = try context.parameters.require("id")
            let signed = try await deviceRequest(request)
            let body = try RequestReader.decode(AnswerQRRequest.self, from: signed.body)
            return try JSONResponse.make(try await qrSignIn.answer(body, id: id, device: signed.device))
        }
    }

    /// The origin a sign-in code names: the configured public origin (a page of another origin is
    /// refused), else the page's `Origin` header, else the scheme and host the request reached; 400
    /// when neither is a plain origin.
    func requestOrigin(_ request: Request) throws -> String {
        let header = request.headers[.origin]
        if let publicOrigin = configuration.publicOrigin {
            if let header, header != publicOrigin {
                throw APIError(
                    .forbidden, .forbidden, "sign-in codes are made for pages of \(publicOrigin) only", field: "Origin")
            }
            return publicOrigin
        }
        if let header {
            guard Self.isPlainOrigin(header) else { throw APIError.invalid("Origin", "must be a plain http or https origin") }
            return header
        }
        let scheme = configuration.trustForwardedFor && request.headers[.xForwardedProto] == "https" ? "https" : "http"
        let origin = "\(scheme)://\(request.head.authority ?? "")"
        guard Self.isPlainOrigin(origin) else { throw APIError.invalid("Host", "must be a plain host name and port") }
        return origin
    }

    /// `http(s)://host[:port]` of at most 200 bytes, the host of letters, digits, `.`, `-`, `[`, `]` and `:`.
    static func isPlainOrigin(_ text: String) -> Bool {
        guard text.utf8.count <= 200, let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""),
            let host = url.host, !host.isEmpty, url.path.isEmpty, url.query == nil, url.user == nil
        else {
            return false
        }
        let rest = text.drop(while: { $0 != "/" }).dropFirst(2)
        return rest.utf8.allSatisfy { byte in
            DeviceProof.isTokenByte(byte) && byte != UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
        }
    }
}

extension HTTPField.Name {
    static let xForwardedProto = Self("X-Forwarded-Proto")!
    static let xFrameOptions = Self("X-Frame-Options")!
}
