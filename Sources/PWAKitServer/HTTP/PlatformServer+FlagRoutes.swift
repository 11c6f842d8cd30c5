import Foundation
import HTTPTypes
import Hummingbird
import PWAKitAPI
import PWAKitBundles

extension PlatformServer {
    func addFlagRoutes(to table: RouteTable) {
        table.add(.get, "/v1/flags") { request, _ in
            let caller = try await authenticate(request)
            let appId = request.uri.queryParameters.get("appId").map { String($0) }
            if let appId { try Validation.appId(appId, field: "appId") }
            return try JSONResponse.make(
                try await flags(for: caller.userId, appId: appId), headers: [.cacheControl: "private, no-store"])
        }
        table.add(.get, "/v1/admin/flags") { request, _ in
            _ = try await requireAdmin(request)
            return try JSONResponse.make(try await storage.flags().map(FlagResponse.init))
        }
        table.add(.put, "/v1/admin/flags/{key}") { request, context in
            _ = try await requireAdmin(request)
            let key = try Self.flagKey(context.parameters.require("key"))
            let body = try await RequestReader.json(SetFlagRequest.self, from: request, limit: configuration.maximumJSONBody)
            let percent = body.rolloutPercent ?? 100
            guard (0...100).contains(percent) else { throw APIError.invalid("rolloutPercent", "must be between 0 and 100") }
            if let problem = FlagRules.problem(with: body.value) { throw APIError.invalid("value", problem) }
            if let appId = body.appId {
                try Validation.appId(appId, field: "appId")
                _ = try await catalog.app(appId)
            }
            let record = FlagRecord(
                appId: body.appId ?? "", key: key, value: try Self.json(body.value), rolloutPercent: percent,
                updatedAt: environment.now())
            try await storage.setFlag(record)
            return try JSONResponse.make(FlagResponse(record))
        }
        table.add(.delete, "/v1/admin/flags/{key}") { request, context in
            _ = try await requireAdmin(request)
            let key = try Self.flagKey(context.parameters.require("key"))
            let appId = request.uri.queryParameters.get("appId").map { String($0) }
            if let appId { try Validation.appId(appId, field: "appId") }
            guard try await storage.deleteFlag(appId: appId ?? "", key: key) else {
                throw APIError(.notFound, .notFound, "no flag \(key)\(appId.map { " for \($0)" } ?? "")")
            }
            return JSONResponse.noContent()
        }
    }

    /// The flags `userId` gets in `appId`: every app's values, then the app's own over them; a
    /// value whose rollout leaves the user out is skipped (an app's excluded value does not hide
    /// the value for every app).
    func flags(for userId: String, appId: String?) async throws -> FlagsResponse {
        var values: [String: ScalarValue] = [:]
        let records = try await storage.flags()
        for scope in [""] + (appId.map { [$0] } ?? []) {
            for record in records where record.appId == scope {
                let subject = FlagRules.subject(key: record.key, appId: scope.isEmpty ? nil : scope)
                guard RolloutBucket.includes(userId: userId, subject: subject, percent: record.rolloutPercent),
                    let value = try? JSONDecoder().decode(ScalarValue.self, from: Data(record.value.utf8))
                else { continue }
                values[record.key] = value
            }
        }
        return FlagsResponse(flags: values)
    }

    static func flagKey(_ key: String) throws -> String {
        guard FlagRules.isKey(key) else {
            throw APIError.invalid("key", "must be 1 to 64 characters of a-z, 0-9, _ and ., starting with a letter")
        }
        return key
    }

    static func json(_ value: ScalarValue) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

extension FlagResponse {
    init(_ record: FlagRecord) {
        self.init(
            key: record.key, appId: record.appId.isEmpty ? nil : record.appId,
            value: (try? JSONDecoder().decode(ScalarValue.self, from: Data(record.value.utf8))) ?? .string(record.value),
            rolloutPercent: record.rolloutPercent, updatedAt: record.updatedAt)
    }
}
