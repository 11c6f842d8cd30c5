import Dispatch
import Synchronization

/// Runs async work to completion from synchronous code that owns the main thread before GTK's
/// loop starts (`pwakit miniapp open` signs in before it opens the window).
enum Blocking {
    static func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do { outcome.set(.success(try await body())) } catch { outcome.set(.failure(error)) }
            done.signal()
        }
        done.wait()
        return try outcome.get()
    }

    private final class Outcome<T: Sendable>: Sendable {
        private let result = Mutex<Result<T, any Error>?>(nil)
        func set(_ value: Result<T, any Error>) { result.withLock { $0 = value } }
        func get() throws -> T { try result.withLock { $0! }.get() }
    }
}
