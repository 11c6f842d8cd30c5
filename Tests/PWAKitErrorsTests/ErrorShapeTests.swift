import Foundation
import PWAKitBundles
import PWAKitCore
import PWAKitErrors
import PWAKitFiles
import Testing

/// One error shape: every target's errors read the same way at the edges.
@Suite struct ErrorShapeTests {
    struct Wrapper: Decodable {
        struct File: Decodable { var sha256: String }
        var files: [File]
    }

    @Test func decodingPathsAreRenderedOneWay() throws {
        let bad = Data(#"{"files":[{"sha256":"a"},{"sha256":7}]}"#.utf8)
        do {
            _ = try JSONDecoder().decode(Wrapper.self, from: bad)
            Issue.record("decoded")
        } catch let error as DecodingError {
            #expect(error.fieldPath == "files[1].sha256")
            #expect(error.fieldPath(under: "payload") == "payload.files[1].sha256")
            #expect(error.fieldProblem == "must be of type string")
        }
        do {
            _ = try JSONDecoder().decode([Wrapper.File].self, from: Data(#"[{}]"#.utf8))
            Issue.record("decoded")
        } catch let error as DecodingError {
            #expect(error.fieldPath == "[0].sha256")
            #expect(error.fieldPath(under: "payload") == "payload[0].sha256")
        }
        do {
            _ = try JSONDecoder().decode(Wrapper.File.self, from: Data("7".utf8))
            Issue.record("decoded")
        } catch let error as DecodingError {
            #expect(error.fieldPath(under: "payload") == "payload")
        }
    }

    @Test func everyTargetsErrorsReportTheirCodeMessageFieldAndCause() {
        let bridge = BridgeError.field(.invalidPayload, path: "payload.style", "expected one of light, medium")
        #expect(ErrorReport(bridge) == ErrorReport(code: "invalid_payload", message: bridge.message, field: "payload.style"))
        let bundle = BundleError(.malformedManifest, "files[2].sha256 is required", field: "files[2].sha256")
        #expect(ErrorReport(bundle).code == bundle.code.rawValue)
        #expect(ErrorReport(bundle).field == "files[2].sha256")
        let file = FileSystemError(.ioFailed, operation: "rename", path: "/x", errno: ENOENT)
        #expect(ErrorReport(file).code == "io_failed")
        #expect(ErrorReport(file).message.contains("rename /x"))
        struct Plain: Error {}
        #expect(ErrorReport(Plain()).code == "internal_error")
    }

    @Test func causesAreFollowedAndBounded() {
        struct Looping: CodedError {
            var codeName: String { "loop" }
            var message: String { "again" }
            var description: String { "loop: again" }
            var underlying: (any Error & Sendable)? { Looping() }
        }
        let report = ErrorReport(Looping())
        #expect(report.causes.count == 8)
        #expect(report.description.hasPrefix("loop: again\ncaused by: loop: again"))
    }
}
