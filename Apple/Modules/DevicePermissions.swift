#if canImport(AVFoundation) && canImport(CoreLocation) && os(iOS)
    import AVFoundation
    import CoreLocation
    import PWAKitCore
    public import PWAKitModules

    /// The ``PermissionProvider`` over the system's authorisations: `AVCaptureDevice` for the
    /// camera and the microphone, a `CLLocationManager` for when-in-use location.
    ///
    /// Asking shows the system prompt only while the state is `notDetermined`; after that the user
    /// changes it in Settings (`app.openSettings`).
    public struct DevicePermissions: PermissionProvider {
        private let location: LocationAuthorization

        /// Creates the provider; its location manager lives on the main thread, as Core Location
        /// requires of a manager whose delegate it calls.
        @MainActor
        public init() {
            location = LocationAuthorization()
        }

        /// The state, without asking.
        public func state(of permission: DevicePermission) async -> PermissionState {
            switch permission {
            case .camera: return Self.state(AVCaptureDevice.authorizationStatus(for: .video))
            case .microphone: return Self.state(AVCaptureDevice.authorizationStatus(for: .audio))
            case .location: return Self.state(await location.status)
            }
        }

        /// Asks when undetermined; the resulting state.
        public func request(_ permission: DevicePermission) async -> PermissionState {
            switch permission {
            case .camera, .microphone:
                let media: AVMediaType = permission == .camera ? .video : .audio
                if AVCaptureDevice.authorizationStatus(for: media) == .notDetermined {
                    _ = await AVCaptureDevice.requestAccess(for: media)
                }
                return Self.state(AVCaptureDevice.authorizationStatus(for: media))
            case .location:
                return Self.state(await location.request())
            }
        }

        static func state(_ status: AVAuthorizationStatus) -> PermissionState {
            switch status {
            case .authorized: .granted
            case .denied: .denied
            case .restricted: .restricted
            case .notDetermined: .notDetermined
            @unknown default: .denied
            }
        }

        static func state(_ status: CLAuthorizationStatus) -> PermissionState {
            switch status {
            case .authorizedAlways, .authorizedWhenInUse: .granted
            case .denied: .denied
            case .restricted: .restricted
            case .notDetermined: .notDetermined
            @unknown default: .denied
            }
        }
    }
#endif
