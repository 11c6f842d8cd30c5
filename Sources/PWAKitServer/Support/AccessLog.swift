import Foundation
import Hummingbird

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One line per answered request in the Common Log Format (as Apache's and nginx's default access
/// logs): `127.0.0.1 - - [25/Nov/2026:21:03:11 +0000] "GET /v1/me HTTP/1.1" 200 97`. Off unless
/// ``ServerConfiguration/accessLog`` is set (`pwakit server --access-log`).
public struct AccessLog: Sendable {
    let sink: @Sendable (String) -> Void

    /// A log that hands each line (without its newline) to `sink`.
    public init(sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

    /// Lines on standard output.
    public static let standardOutput = AccessLog { line in StandardStreams.writeLine(line, to: 1) }

    func record(address: String?, method: String, target: String, status: Int, bytes: Int?, at seconds: Int) {
        sink(Self.line(address: address, method: method, target: target, status: status, bytes: bytes, at: seconds))
    }

    /// The line for one request; `"` and control characters in the target are escaped as `\xHH`.
    static func line(address: String?, method: String, target: String, status: Int, bytes: Int?, at seconds: Int) -> String {
        var escaped = ""
        for scalar in target.unicodeScalars {
            if scalar == "\"" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F {
                escaped += "\\x" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return
            "\(address ?? "-") - - [\(timestamp(seconds))] \"\(method) \(escaped) HTTP/1.1\" \(status) \(bytes.map(String.init) ?? "-")"
    }

    /// `25/Nov/2026:21:03:11 +0000`.
    static func timestamp(_ seconds: Int) -> String {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { String(value).leftPadded(to: 2) }
        return
            "\(two(parts.tm_mday))/\(months[Int(parts.tm_mon)])/\(parts.tm_year + 1900):\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

/// Records every response the router gives (errors included, as the error middleware answers them).
struct AccessLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let log: AccessLog

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let response = try await next(request, context)
        log.record(
            address: context.peerAddress, method: request.method.rawValue, target: request.uri.description,
            status: response.status.code, bytes: response.body.contentLength, at: Int(time(nil)))
        return response
    }
}
