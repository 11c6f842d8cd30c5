public import Foundation
public import PWAKitAPI
import PWAKitErrors
import PWAKitFiles

/// The mini-app catalog with conditional requests (`If-None-Match`) and the last good copy kept
/// on disk for offline launches. A kept copy that cannot be decoded is `store_corrupt` naming
/// `catalog` (and the field at fault), never taken for "no copy"; it is left as it is until a
/// successful fetch replaces it.
public actor CatalogStore {
    private let client: APIClient
    private let tokens: any AccessTokenSource
    private let path: String
    private let now: @Sendable () -> Date
    private var snapshot: CatalogSnapshot?

    /// A catalog cached in `directory/catalog.json`.
    public init(
        client: APIClient, tokens: any AccessTokenSource, directory: URL, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.client = client
        self.tokens = tokens
        self.path = directory.appendingPathComponent("catalog.json").path
        self.now = now
    }

    /// The last good copy, from memory or disk; nil when the catalog was never fetched. A kept copy
    /// that cannot be decoded throws ``MiniAppError`` `store_corrupt` (field `catalog`, or the
    /// field at fault under it: `catalog.apps[0].id`).
    public func cached() throws -> CatalogSnapshot? {
        if let snapshot { return snapshot }
        guard let data = try DurableFile.contents(of: path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        do {
            let loaded = try decoder.decode(CatalogSnapshot.self, from: data)
            snapshot = loaded
            return loaded
        } catch {
            let field = (error as? DecodingError)?.fieldPath(under: "catalog") ?? "catalog"
            let problem = (error as? DecodingError).map { " (\(field) \($0.fieldProblem))" } ?? ""
            throw MiniAppError(
                .storeCorrupt, "the kept catalog (\(path)) cannot be read\(problem)", field: field, underlying: error)
        }
    }

    /// Asks the server for the catalog (conditionally when a copy is kept); when the server
    /// cannot be reached, answers the last good copy marked stale, and throws only when there is
    /// none: the server's error, or `store_corrupt` when the kept copy cannot be read. A successful
    /// fetch replaces an unreadable copy.
    @discardableResult
    public func refresh() async throws -> CatalogSnapshot {
        let previous: CatalogSnapshot?
        var unreadable: MiniAppError?
        do {
            previous = try cached()
        } catch let error as MiniAppError where error.code == .storeCorrupt {
            previous = nil
            unreadable = error
        }
        let answer: APIClient.Conditional<AppListResponse>
        do {
            let etag = previous?.etag
            answer = try await client.apps(accessToken: try await tokens.accessToken(), ifNoneMatch: etag)
        } catch let error as APIClientError where error.isTransient {
            if let unreadable {
                // NB: the cause offline is the unreadable copy, not the network: "cannot reach the server" would hide it.
                throw MiniAppError(
                    .storeCorrupt, "\(unreadable.message), and the server cannot be reached to fetch it again",
                    field: unreadable.field, underlying: unreadable.underlying)
            }
            guard var stale = previous else { throw error }
            stale.isStale = true
            snapshot = stale
            return stale
        }
        let fresh: CatalogSnapshot
        switch answer {
        case .notModified:
            guard var kept = previous else {
                throw APIClientError(.badResponse, "the server answered 304 to a request without a validator")
            }
            kept.fetchedAt = now()
            kept.isStale = false
            fresh = kept
        case .modified(let list, let etag):
            fresh = CatalogSnapshot(apps: list.apps, etag: etag, fetchedAt: now(), isStale: false)
        }
        snapshot = fresh
        try save(fresh)
        return fresh
    }

    /// Forgets the kept copy (sign-out).
    public func clear() throws {
        snapshot = nil
        unlink(path)
    }

    private func save(_ snapshot: CatalogSnapshot) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        try DurableFile.makeDirectory((path as NSString).deletingLastPathComponent, permissions: 0o700)
        try DurableFile.replace(path, with: try encoder.encode(snapshot), permissions: 0o600)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
