public import Foundation
public import PWAKitAPI
import PWAKitFiles

/// The mini-app catalog with conditional requests (`If-None-Match`) and the last good copy kept
/// on disk for offline launches.
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

    /// The last good copy, from memory or disk; nil when the catalog was never fetched.
    public func cached() throws -> CatalogSnapshot? {
        if let snapshot { return snapshot }
        guard let data = try DurableFile.contents(of: path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let loaded = try? decoder.decode(CatalogSnapshot.self, from: data) else { return nil }
        snapshot = loaded
        return loaded
    }

    /// Asks the server for the catalog (conditionally when a copy is kept); when the server
    /// cannot be reached, answers the last good copy marked stale, and throws only when there is none.
    @discardableResult
    public func refresh() async throws -> CatalogSnapshot {
        let previous = try cached()
        let answer: APIClient.Conditional<AppListResponse>
        do {
            let etag = previous?.etag
            answer = try await client.apps(accessToken: try await tokens.accessToken(), ifNoneMatch: etag)
        } catch let error as APIClientError where error.isTransient {
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
