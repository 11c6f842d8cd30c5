public import Foundation
import PWAKitBundles

/// Serves one app's local bundle — a directory, or a verified release in a content-addressed
/// store (``ReleaseFiles``) — on its `app://<appId>/` origin.
///
/// A pure function of the request and the directory's contents: correct content types,
/// `index.html` for directories and for extension-less paths (single-page app routes),
/// single byte ranges (206 / 416), strong `ETag`s with `If-None-Match` (304), and
/// `Cache-Control: no-cache` so every load revalidates. Paths that leave the root — `..`,
/// encoded variants, symlinks that point outside — are refused with 403; missing files get
/// a small 404 page. Nothing a page asks for can crash the host or reveal a file path.
public struct LocalBundleServer: Sendable {
    /// The app id, the host of the origin (`app://<appId>/`).
    public let appID: String
    /// The bundle's root directory, symlinks resolved (for a release: the directory of its first file).
    public let root: URL
    /// The release served instead of a directory, when there is one.
    public let release: ReleaseFiles?
    /// The file served for directories and for single-page app routes.
    public var indexFile = "index.html"

    /// Serves `root` as `app://<appID>/`.
    public init(appID: String, root: URL) {
        self.appID = appID
        self.root = root.resolvingSymlinksInPath().standardizedFileURL
        self.release = nil
    }

    /// Serves the files of a verified release as `app://<appID>/`: only the paths its manifest
    /// lists, with the manifest's media types and each file's hash as its strong `ETag`.
    public init(appID: String, release: ReleaseFiles) {
        self.appID = appID
        self.release = release
        self.root = URL(fileURLWithPath: "/", isDirectory: true)
    }

    /// The response to `request`.
    public func respond(to request: LocalBundleRequest) -> LocalBundleResponse {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .errorPage(405, "Method Not Allowed", "Only GET and HEAD are served.", headers: ["Allow": "GET, HEAD"])
        }
        guard let rawPath = Self.rawPath(of: request.uri, appID: appID) else {
            return .errorPage(404, "Not Found", "This address is not part of this app.")
        }
        let path: BundlePath
        do {
            path = try BundlePath.parse(rawPath: rawPath)
        } catch {
            return .errorPage(403, "Forbidden", "Refused: \(error.reason).")
        }
        switch locate(path) {
        case .outside:
            return .errorPage(403, "Forbidden", "Refused: the path leaves the bundle.")
        case .missing:
            return .errorPage(404, "Not Found", "No file at /\(path.segments.joined(separator: "/")).")
        case .file(let url, let attributes):
            return serve(url, attributes, request)
        }
    }

    // MARK: Locating files

    enum Location {
        case file(URL, FileFacts)
        case missing
        case outside
    }

    struct FileFacts {
        var size: Int
        var modified: Date
        var inode: UInt64
        /// The manifest's media type and hash, for a release's file.
        var contentType: String? = nil
        var sha256: String? = nil
    }

    func locate(_ path: BundlePath) -> Location {
        if let release { return locate(path, in: release) }
        var url = root
        for segment in path.segments { url.appendPathComponent(segment, isDirectory: false) }
        switch facts(url) {
        case .some((let facts, false)):
            return contains(url) ? .file(url, facts) : .outside
        case .some((_, true)):
            let index = url.appendingPathComponent(indexFile, isDirectory: false)
            if let (facts, isDirectory) = self.facts(index), !isDirectory {
                return contains(index) ? .file(index, facts) : .outside
            }
            return contains(url) ? .missing : .outside
        case nil:
            // NB: a route of a single-page app (no extension) gets the root index; a missing
            // asset (with an extension) is a 404, so broken links are not masked as HTML.
            guard path.looksLikeRoute else { return .missing }
            let index = root.appendingPathComponent(indexFile, isDirectory: false)
            if let (facts, isDirectory) = self.facts(index), !isDirectory { return .file(index, facts) }
            return .missing
        }
    }

    func locate(_ path: BundlePath, in release: ReleaseFiles) -> Location {
        let file =
            release.file(at: path.segments)
            ?? (path.looksLikeRoute ? release.files[indexFile] ?? release.files[release.entry] : nil)
        guard let file else { return .missing }
        return .file(
            file.location,
            FileFacts(
                size: file.entry.size, modified: Date(timeIntervalSince1970: 0), inode: 0, contentType: file.entry.contentType,
                sha256: file.entry.sha256))
    }

    /// Whether `url`, symlinks resolved, is inside the root.
    func contains(_ url: URL) -> Bool {
        let resolved = url.resolvingSymlinksInPath().standardizedFileURL.path
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return resolved.hasPrefix(rootPath)
    }

    func facts(_ url: URL) -> (FileFacts, Bool)? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: url.path) else { return nil }
        // attributesOfItem follows a final symlink: the type is the target's.
        let type = attributes[.type] as? FileAttributeType
        let facts = FileFacts(
            size: (attributes[.size] as? NSNumber)?.intValue ?? 0,
            modified: attributes[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0),
            inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0)
        return (facts, type == .typeDirectory)
    }

    // MARK: Serving

    func serve(_ url: URL, _ facts: FileFacts, _ request: LocalBundleRequest) -> LocalBundleResponse {
        let contentType = facts.contentType ?? ContentTypes.forPath(url.lastPathComponent)
        let nanos = UInt64(max(0, facts.modified.timeIntervalSince1970 * 1_000_000_000))
        let etag =
            facts.sha256.map { "\"\($0)\"" }
            ?? "\"\(String(facts.inode, radix: 16))-\(String(facts.size, radix: 16))-\(String(nanos, radix: 16))\""
        var headers = [
            "ETag": etag, "Cache-Control": "no-cache", "Accept-Ranges": "bytes",
            "X-Content-Type-Options": "nosniff",
        ]
        if let tags = request.headers["if-none-match"], Self.matches(tags, etag) {
            return LocalBundleResponse(status: 304, reason: "Not Modified", contentType: contentType, headers: headers)
        }
        let range: ClosedRange<Int>?
        switch ByteRange.parse(request.headers["range"], size: facts.size) {
        case .whole:
            range = nil
        case .unsatisfiable:
            headers["Content-Range"] = "bytes */\(facts.size)"
            return LocalBundleResponse(
                status: 416, reason: "Range Not Satisfiable", contentType: contentType, headers: headers)
        case .partial(let part):
            range = part
            headers["Content-Range"] = "bytes \(part.lowerBound)-\(part.upperBound)/\(facts.size)"
        }
        let length = range?.count ?? facts.size
        headers["Content-Length"] = String(length)
        let status = range == nil ? 200 : 206
        let reason = range == nil ? "OK" : "Partial Content"
        guard request.method == "GET" else {
            return LocalBundleResponse(status: status, reason: reason, contentType: contentType, headers: headers)
        }
        guard let body = Self.read(url, offset: range?.lowerBound ?? 0, count: length) else {
            return .errorPage(404, "Not Found", "The file could not be read.")
        }
        return LocalBundleResponse(status: status, reason: reason, contentType: contentType, headers: headers, body: body)
    }

    static func read(_ url: URL, offset: Int, count: Int) -> Data? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        do {
            try handle.seek(toOffset: UInt64(offset))
            return try handle.read(upToCount: count) ?? Data()
        } catch {
            return nil
        }
    }

    /// Whether an `If-None-Match` list names `etag` (or is `*`).
    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingCharacters(in: .whitespaces)
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }

    /// The raw path of `uri` when it is `app://<appID>/…` (query and fragment dropped).
    static func rawPath(of uri: String, appID: String) -> Substring? {
        let prefix = "app://"
        guard uri.lowercased().hasPrefix(prefix) else { return nil }
        let rest = uri.dropFirst(prefix.count)
        let hostEnd = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard rest[..<hostEnd].lowercased() == appID.lowercased() else { return nil }
        let afterHost = rest[hostEnd...]
        let pathEnd = afterHost.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? afterHost.endIndex
        return afterHost[..<pathEnd]
    }
}
