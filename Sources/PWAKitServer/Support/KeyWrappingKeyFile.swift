public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file holding the key that wraps the token-signing key: the base64 of 32 random bytes, readable
/// by its owner only. A file that others may read is refused, as `ssh` refuses such a private key.
public enum KeyWrappingKeyFile {
    /// A key-wrapping key from its base64 text (a file's content or `PWAKIT_KEY_WRAPPING_KEY`); `source`
    /// names where it came from in the error.
    public static func decode(_ text: String, source: String) throws -> Data {
        guard let key = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)), key.count == 32 else {
            throw KeyFileError(message: "\(source) must hold the base64 of 32 bytes (e.g. `head -c 32 /dev/urandom | base64`)")
        }
        return key
    }

    /// Reads the key at `path`; refuses a file that its group or others may read or write.
    public static func load(path: String) throws -> Data {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw KeyFileError(message: "key file \(path) cannot be read: \(error.localizedDescription)")
        }
        let mode = (attributes[.posixPermissions] as? Int) ?? 0
        guard mode & 0o077 == 0 else {
            throw KeyFileError(
                message: "key file \(path) may be read by others (mode \(String(mode & 0o777, radix: 8))); run chmod 600 \(path)")
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
            throw KeyFileError(message: "key file \(path) cannot be read")
        }
        return try decode(text, source: "key file \(path)")
    }

    /// Reads the key at `path`, creating it (mode 0600, 32 random bytes, synced) when it does not exist.
    /// Two processes starting together agree: only one creates it, the other reads what it wrote.
    public static func loadOrCreate(path: String) throws -> Data {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            guard errno == EEXIST else {
                throw KeyFileError(message: "key file \(path) cannot be created: \(String(cString: strerror(errno)))")
            }
            // NB: another process may be between its create and its write; give it a moment.
            for _ in 0..<50 {
                if let size = try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int, size > 0 { break }
                usleep(20_000)
            }
            return try load(path: path)
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        var generator = SystemRandomNumberGenerator()
        for index in bytes.indices { bytes[index] = generator.next() }
        let text = Array((Data(bytes).base64EncodedString() + "\n").utf8)
        let written = text.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == text.count, synced == 0 else {
            unlink(path)
            throw KeyFileError(message: "key file \(path) cannot be written")
        }
        let directory = open(
            (path as NSString).deletingLastPathComponent.isEmpty ? "." : (path as NSString).deletingLastPathComponent,
            O_RDONLY | O_CLOEXEC)
        if directory >= 0 {
            fsync(directory)
            close(directory)
        }
        return Data(bytes)
    }
}

/// A key file that cannot be used, with the reason and the fix.
public struct KeyFileError: Error, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    /// The message.
    public var description: String { message }
}
