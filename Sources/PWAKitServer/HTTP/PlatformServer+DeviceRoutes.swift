import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI

extension PlatformServer {
    func addDeviceRoutes(to table: RouteTable) {
        table.add(.post, "/v1/devices") { request, _ in
            let caller = try await authenticate(request)
            let body = try await RequestReader.json(
                RegisterDeviceRequest.self, from: request, limit: configuration.maximumJSONBody)
            try Self.checkToken(body.token, field: "token")
            let platform = body.platform ?? "apns"
            guard ["apns", "local"].contains(platform) else { throw APIError.invalid("platform", "must be apns or local") }
            let environment = body.environment ?? "production"
            guard ["production", "sandbox"].contains(environment) else {
                throw APIError.invalid("environment", "must be production or sandbox")
            }
            let device = DeviceRecord(
                token: body.token.lowercased(), userId: caller.userId, platform: platform, environment: environment,
                updatedAt: self.environment.now())
            try await storage.upsertDevice(device)
            return try JSONResponse.make(DeviceResponse(device), status: .created)
        }
        table.add(.get, "/v1/devices") { request, _ in
            let caller = try await authenticate(request)
            return try JSONResponse.make(try await storage.devices(userId: caller.userId).map(DeviceResponse.init))
        }
        table.add(.delete, "/v1/devices/{token}") { request, context in
            let caller = try await authenticate(request)
            let token = try context.parameters.require("token")
            try Self.checkToken(token, field: "token")
            guard try await storage.deleteDevice(token: token.lowercased(), userId: caller.userId) else {
                throw APIError(.notFound, .notFound, "no such device of yours")
            }
            return JSONResponse.noContent()
        }
        table.add(.post, "/v1/admin/push") { request, _ in
            _ = try await requireAdmin(request)
            let body = try await RequestReader.json(SendPushRequest.self, from: request, limit: configuration.maximumJSONBody)
            let title = try Validation.text(body.title, field: "title", maximum: 200)
            let text = try Validation.text(body.body, field: "body", maximum: 2000)
            if let route = body.route {
                guard route.utf8.count <= 2048, URL(string: route)?.scheme != nil else {
                    throw APIError.invalid("route", "must be a URL of at most 2048 bytes")
                }
            }
            guard let sender = configuration.pushSender else {
                throw APIError(.serviceUnavailable, .pushUnavailable, "this server has no push sender configured")
            }
            guard let user = try await storage.user(email: Validation.normalizedEmail(body.email)) else {
                throw APIError(.notFound, .notFound, "no account has the email \(body.email)", field: "email")
            }
            let message = PushMessage(title: title, body: text, route: body.route)
            var deliveries: [SendPushResponse.Delivery] = []
            for device in try await storage.devices(userId: user.id) {
                switch await sender.send(message, to: device) {
                case .delivered: deliveries.append(.init(token: device.token, outcome: "delivered"))
                case .invalidToken(let reason):
                    _ = try await storage.deleteDevice(token: device.token, userId: nil)
                    deliveries.append(.init(token: device.token, outcome: "unregistered", reason: reason))
                case .retryLater(let reason):
                    deliveries.append(.init(token: device.token, outcome: "retry_later", reason: reason))
                case .failed(let reason): deliveries.append(.init(token: device.token, outcome: "failed", reason: reason))
                }
            }
            return try JSONResponse.make(SendPushResponse(deliveries: deliveries))
        }
    }

    /// A push token: 16 to 400 hexadecimal digits.
    static func checkToken(_ token: String, field: String) throws {
        guard (16...400).contains(token.utf8.count),
            token.utf8.allSatisfy({ byte in
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
                    || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
            })
        else {
            throw APIError.invalid(field, "must be 16 to 400 hexadecimal digits")
        }
    }
}

extension DeviceResponse {
    init(_ record: DeviceRecord) {
        self.init(token: record.token, platform: record.platform, environment: record.environment, updatedAt: record.updatedAt)
    }
}
