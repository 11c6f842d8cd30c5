#if canImport(CoreHaptics)
    import CoreHaptics
    import PWAKitCore
    public import PWAKitModules

    /// The ``VibrationProvider`` over Core Haptics: the Web Vibration API's on/off pattern played
    /// as continuous haptic events on a `CHHapticEngine`.
    ///
    /// A device without a haptic engine (iPad, iPod touch) answers `false`, as the Web Vibration
    /// API does where there is no motor. `[]` or all-zero patterns stop a running pattern.
    public actor CoreHapticsVibration: VibrationProvider {
        private var engine: CHHapticEngine?
        private var player: (any CHHapticPatternPlayer)?

        /// A provider that creates its engine on first use.
        public init() {}

        /// Plays `pattern` (on, off, on, … milliseconds), replacing a running one; whether the
        /// device has haptics.
        public func vibrate(_ pattern: [Int]) -> Bool {
            guard CHHapticEngine.capabilitiesForHardware().supportsHaptics else { return false }
            try? player?.stop(atTime: CHHapticTimeImmediate)
            player = nil
            let events = Self.events(pattern)
            guard !events.isEmpty else { return true }
            do {
                let engine = try self.engine ?? makeEngine()
                // NB: start() is cheap when running, and restarts an engine the system stopped.
                try engine.start()
                let player = try engine.makePlayer(with: CHHapticPattern(events: events, parameters: []))
                try player.start(atTime: CHHapticTimeImmediate)
                self.player = player
            } catch {
                // The engine can fail transiently (audio session interruptions); the next call
                // builds a fresh one.
                engine = nil
            }
            return true
        }

        private func makeEngine() throws -> CHHapticEngine {
            let engine = try CHHapticEngine()
            engine.playsHapticsOnly = true
            engine.isAutoShutdownEnabled = true
            self.engine = engine
            return engine
        }

        /// One continuous event per non-zero "on" entry, at its offset in the pattern.
        static func events(_ pattern: [Int]) -> [CHHapticEvent] {
            var events: [CHHapticEvent] = []
            var offset = 0.0
            for (index, milliseconds) in pattern.enumerated() {
                let seconds = Double(milliseconds) / 1000
                if index.isMultiple(of: 2), milliseconds > 0 {
                    events.append(
                        CHHapticEvent(
                            eventType: .hapticContinuous,
                            parameters: [
                                CHHapticEventParameter(parameterID: .hapticIntensity, value: 1),
                                CHHapticEventParameter(parameterID: .hapticSharpness, value: 0.5),
                            ], relativeTime: offset, duration: seconds))
                }
                offset += seconds
            }
            return events
        }
    }
#endif
