/// Media types for the file extensions web bundles use.
public enum ContentTypes {
    /// The type used when the extension is unknown.
    public static let fallback = "application/octet-stream"

    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8", "htm": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8", "js": "text/javascript; charset=utf-8",
        "mjs": "text/javascript; charset=utf-8", "json": "application/json",
        "map": "application/json", "webmanifest": "application/manifest+json",
        "txt": "text/plain; charset=utf-8", "xml": "application/xml", "svg": "image/svg+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif",
        "webp": "image/webp", "avif": "image/avif", "ico": "image/x-icon",
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "wasm": "application/wasm", "mp3": "audio/mpeg", "mp4": "video/mp4", "webm": "video/webm",
        "ogg": "audio/ogg", "wav": "audio/wav", "pdf": "application/pdf",
    ]

    /// The media type for a bundle path, by its (case-insensitive) extension.
    public static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        let ext = name[name.index(after: dot)...].lowercased()
        return byExtension[ext] ?? fallback
    }
}
