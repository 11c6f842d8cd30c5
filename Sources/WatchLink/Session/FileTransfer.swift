public import Foundation

/// A file handed to ``WatchSession/transferFile(_:metadata:)``: what travels with the bytes.
public struct FileTransfer: Sendable, Hashable, Identifiable, Codable {
    /// The transfer's id, stable across retries, restarts and redeliveries.
    public var id: UUID
    /// The file's name (the last path component of the file sent), checked by ``validateName(_:)``.
    public var fileName: String
    /// The caller's metadata, delivered with the file.
    public var metadata: [String: String]
    /// The file's size in bytes.
    public var size: Int64

    /// Creates a transfer descriptor; call ``validate()`` before trusting it.
    public init(id: UUID, fileName: String, metadata: [String: String], size: Int64) {
        self.id = id
        self.fileName = fileName
        self.metadata = metadata
        self.size = size
    }

    /// Decodes a descriptor; every decoding error's coding path names the field at fault.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(UUID.self, forKey: .id)
        fileName = try container.decode(String.self, forKey: .fileName)
        metadata = try container.decodeIfPresent([String: String].self, forKey: .metadata) ?? [:]
        do { size = try container.decode(Int64.self, forKey: .size) } catch DecodingError.keyNotFound(let key, let context) {
            throw DecodingError.keyNotFound(key, context)
        } catch {
            // NB: Foundation reports a fractional number here as invalid JSON with an empty coding path.
            throw DecodingError.dataCorruptedError(forKey: .size, in: container, debugDescription: "not a whole number of bytes")
        }
    }
}

/// How far an outstanding file transfer has got.
public struct FileTransferProgress: Sendable, Hashable {
    /// Bytes sent: where the current attempt started (the socket transport resumes an interrupted
    /// file from what the receiver kept) plus what was written to the link since. A finished
    /// transfer has no progress (`nil`).
    public var completedBytes: Int64
    /// The file's size.
    public var totalBytes: Int64

    /// Creates a progress value.
    public init(completedBytes: Int64, totalBytes: Int64) {
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes`, and 1 for an empty file.
    public var fractionCompleted: Double {
        totalBytes == 0 ? 1 : Double(completedBytes) / Double(totalBytes)
    }
}

/// A file that arrived from the counterpart.
///
/// From a session, `url` is valid only until the delegate callback returns (the session deletes
/// it then, as WatchConnectivity does); from a ``FileInbox`` it is the copy in the inbox.
public struct ReceivedFile: Sendable, Hashable {
    /// What the sender transferred.
    public var transfer: FileTransfer
    /// Where the file's bytes are.
    public var url: URL

    /// Creates a received-file value.
    public init(transfer: FileTransfer, url: URL) {
        self.transfer = transfer
        self.url = url
    }
}

extension FileTransfer {
    /// Longest file name, in UTF-8 bytes.
    public static let maximumNameLength = 255
    /// Most metadata entries.
    public static let maximumMetadataEntries = 64

    /// Checks the name, metadata and size; a descriptor that fails is never turned into a path.
    ///
    /// - Throws: `invalid_argument` naming `fileName` or `metadata`, or `payload_too_large`
    ///   naming `metadata` (too large) or `file` (over ``SessionLimits/file``).
    public func validate() throws(WatchLinkError) {
        try Self.validateName(fileName)
        try Self.validateMetadata(metadata)
        guard size >= 0 else {
            throw WatchLinkError(.invalidArgument, "file size \(size) is negative", details: ["field": "size"])
        }
        try SessionLimits.checkFile(size)
    }

    /// Checks that `name` is a plain file name: 1-255 UTF-8 bytes, no `/`, `\`, NUL or control
    /// characters, and not starting with `.` (which rules out `.`, `..` and hidden files).
    public static func validateName(_ name: String) throws(WatchLinkError) {
        func refuse(_ why: String) -> WatchLinkError {
            WatchLinkError(.invalidArgument, "file name \(why)", details: ["field": "fileName"])
        }
        guard !name.isEmpty else { throw refuse("is empty") }
        guard name.utf8.count <= maximumNameLength else { throw refuse("is longer than \(maximumNameLength) bytes") }
        guard !name.hasPrefix(".") else { throw refuse("must not start with '.'") }
        for scalar in name.unicodeScalars {
            if scalar == "/" || scalar == "\\" { throw refuse("must not contain a path separator") }
            if scalar.value < 0x20 || scalar.value == 0x7F { throw refuse("must not contain control characters") }
        }
    }

    /// Checks metadata: at most 64 entries, non-empty keys, and 65,536 bytes of keys and values in all.
    public static func validateMetadata(_ metadata: [String: String]) throws(WatchLinkError) {
        guard metadata.count <= maximumMetadataEntries else {
            throw WatchLinkError(
                .invalidArgument, "metadata has \(metadata.count) entries (at most \(maximumMetadataEntries))",
                details: ["field": "metadata"])
        }
        var bytes = 0
        for (key, value) in metadata {
            guard !key.isEmpty else {
                throw WatchLinkError(.invalidArgument, "metadata keys must not be empty", details: ["field": "metadata"])
            }
            bytes += key.utf8.count + value.utf8.count
        }
        guard bytes <= SessionLimits.fileMetadata else {
            throw WatchLinkError(
                .payloadTooLarge, "metadata of \(bytes) bytes exceeds \(SessionLimits.fileMetadata)",
                details: ["field": "metadata", "limit": String(SessionLimits.fileMetadata)])
        }
    }

    /// The descriptor as JSON, for transports that carry it next to the bytes.
    func encoded() -> Data {
        (try? WireCodec.makeEncoder().encode(self)) ?? Data()
    }

    /// Reads and validates a descriptor received from the counterpart.
    ///
    /// - Throws: `invalid_envelope` naming the field at fault (`id`, `fileName`, `metadata`,
    ///   `size`), or `payload_too_large` for a file over ``SessionLimits/file``.
    public static func decodeDescriptor(_ data: Data) throws(WatchLinkError) -> FileTransfer {
        func bad(_ field: String, _ why: String) -> WatchLinkError {
            WatchLinkError(.invalidEnvelope, "file descriptor: \(field) \(why)", details: ["field": field])
        }
        guard data.count <= SessionLimits.fileMetadata + 4096 else { throw bad("descriptor", "is too long") }
        let transfer: FileTransfer
        do { transfer = try JSONDecoder().decode(FileTransfer.self, from: data) } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, _): throw bad(key.stringValue, "is missing")
            case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
                throw bad(context.codingPath.first?.stringValue ?? "descriptor", "is malformed")
            @unknown default: throw bad("descriptor", "is malformed")
            }
        } catch { throw bad("descriptor", "is malformed") }
        do { try transfer.validate() } catch {
            if error.code == .payloadTooLarge { throw error }
            throw WatchLinkError(.invalidEnvelope, "file descriptor: \(error.message)", details: error.details)
        }
        return transfer
    }
}
