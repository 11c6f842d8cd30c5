public import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A development sender: appends each notification as one JSON line (token, title, body, route,
/// the APNs payload it would send) to a file and reports it delivered; a device registered with
/// `platform: local` is how a Linux host receives them.
public struct LocalPushSender: PushSender {
    /// The file lines are appended to.
    public let file: URL

    /// Creates a sender writing to `file`.
    public init(file: URL) { self.file = file }

    /// Appends the line (synced) and reports it delivered; a file that cannot be written fails it.
    public func send(_ message: PushMessage, to device: DeviceRecord) async -> PushOutcome {
        var line: [String: Any] = [
            "token": device.token, "title": message.title, "body": message.body,
            "payload": APNsRequest.payload(for: message),
        ]
        if let route = message.route { line["route"] = route }
        guard let data = try? JSONSerialization.data(withJSONObject: line, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return .failed(reason: "the notification cannot be encoded") }
        let fd = open(file.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return .failed(reason: "cannot open \(file.path)") }
        defer { close(fd) }
        let bytes = Array(data) + [UInt8(ascii: "\n")]
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count, fsync(fd) == 0 else { return .failed(reason: "cannot write \(file.path)") }
        return .delivered
    }
}
