#if canImport(UIKit)
    /// A continuation that resumes once and ignores later resumes.
    ///
    /// UIKit's completion handlers do not promise to run exactly once (a share sheet may report
    /// each activity it ran; a print sheet that failed to appear may still report), and a
    /// checked continuation traps on a second resume.
    @MainActor
    final class OneShotContinuation<Value: Sendable> {
        private var continuation: CheckedContinuation<Value, Never>?

        init(_ continuation: CheckedContinuation<Value, Never>) {
            self.continuation = continuation
        }

        /// Resumes with `value` the first time; does nothing afterwards.
        func resume(_ value: Value) {
            continuation?.resume(returning: value)
            continuation = nil
        }
    }
#endif
