#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Line output on the process's standard streams that never traps: `FileHandle.write` does when
/// nobody reads any more (a closed pipe); here such a line is dropped.
public enum StandardStreams {
    /// Writes `line` and a newline to descriptor 1 (`standardOutput`) or 2 (`standardError`), whole.
    public static func writeLine(_ line: String, to descriptor: Int32) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return
            }
        }
    }
}
