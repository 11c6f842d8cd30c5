#if canImport(CoreLocation) && os(iOS)
    import CoreLocation

    /// The app's when-in-use location authorisation, read from and requested through a
    /// `CLLocationManager` whose delegate reports the user's answer.
    @MainActor
    final class LocationAuthorization: NSObject, CLLocationManagerDelegate {
        private let manager = CLLocationManager()
        private var waiting: [CheckedContinuation<CLAuthorizationStatus, Never>] = []

        override init() {
            super.init()
            manager.delegate = self
        }

        /// The current status.
        var status: CLAuthorizationStatus { manager.authorizationStatus }

        /// Asks when the user has not decided yet, and waits for the answer; otherwise the status.
        ///
        /// Without `NSLocationWhenInUseUsageDescription` in Info.plist the system never asks, and
        /// the call waits until the bridge call times out.
        func request() async -> CLAuthorizationStatus {
            guard manager.authorizationStatus == .notDetermined else { return manager.authorizationStatus }
            return await withCheckedContinuation { continuation in
                waiting.append(continuation)
                if waiting.count == 1 { manager.requestWhenInUseAuthorization() }
            }
        }

        /// Resumes the waiting requests once the user has decided (the delegate also hears the
        /// initial, undetermined status when the manager is created).
        nonisolated func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
            let status = manager.authorizationStatus
            MainActor.assumeIsolated { self.decided(status) }
        }

        private func decided(_ status: CLAuthorizationStatus) {
            guard status != .notDetermined else { return }
            let answered = waiting
            waiting.removeAll()
            for continuation in answered { continuation.resume(returning: status) }
        }
    }
#endif
