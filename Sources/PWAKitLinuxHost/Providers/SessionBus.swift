#if WebKitGTK
    import CWebKitGTK
    import Foundation

    /// The user's D-Bus session bus, through GIO's GDBus.
    ///
    /// Connects only when a session bus is announced (`DBUS_SESSION_BUS_ADDRESS`, or the
    /// `$XDG_RUNTIME_DIR/bus` socket): GIO would otherwise try to autolaunch a bus of its own.
    @MainActor
    final class SessionBus {
        let connection: OpaquePointer

        private init(_ connection: OpaquePointer) {
            self.connection = connection
        }

        private static var shared: SessionBus??

        /// The session bus, or nil when there is none.
        static func connect(environment: [String: String] = ProcessInfo.processInfo.environment) -> SessionBus? {
            if let shared { return shared }
            var bus: SessionBus?
            let announced =
                !(environment["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty
                || environment["XDG_RUNTIME_DIR"].map { FileManager.default.fileExists(atPath: "\($0)/bus") } == true
            if announced {
                var error: UnsafeMutablePointer<GError>?
                if let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) {
                    bus = SessionBus(connection)
                }
                if let error { g_error_free(error) }
            }
            shared = .some(bus)
            return bus
        }

        /// Whether `name` has an owner now, or the bus can start one on demand.
        func isAvailable(_ name: String) -> Bool {
            if let reply = callSync("NameHasOwner", pwakit_variant_string_tuple(name)) {
                defer { g_variant_unref(reply) }
                if pwakit_variant_boolean_child(reply) != 0 { return true }
            }
            guard let reply = callSync("ListActivatableNames", nil) else { return false }
            defer { g_variant_unref(reply) }
            return pwakit_variant_strv_contains(reply, name) != 0
        }

        /// Calls a method of the bus itself and waits for the answer (quick: the daemon answers
        /// from memory).
        private func callSync(_ method: String, _ parameters: OpaquePointer?) -> OpaquePointer? {
            var error: UnsafeMutablePointer<GError>?
            let reply = g_dbus_connection_call_sync(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", method, parameters,
                nil, G_DBUS_CALL_FLAGS_NONE, 2000, nil, &error)
            if let error { g_error_free(error) }
            return reply
        }

        /// Calls `method` and returns its reply read by `decode`; the answer arrives through the
        /// main loop.
        func call<T: Sendable>(
            _ destination: String, _ path: String, _ interface: String, _ method: String, _ parameters: OpaquePointer?,
            decode: @escaping (OpaquePointer) -> T
        ) async throws(DBusError) -> T {
            let result: Result<T, DBusError> = await withCheckedContinuation { continuation in
                let box = ReplyBox { reply, message in
                    if let reply {
                        continuation.resume(returning: .success(decode(reply)))
                    } else {
                        continuation.resume(returning: .failure(DBusError(message: message ?? "no reply")))
                    }
                }
                let done: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
                    source, result, data in
                    let box = Unmanaged<ReplyBox>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let reply = g_dbus_connection_call_finish(source.map { OpaquePointer($0) }, result, &error)
                    let message = error.map { String(cString: $0.pointee.message) }
                    if let error { g_error_free(error) }
                    box.complete(reply, message)
                    if let reply { g_variant_unref(reply) }
                }
                g_dbus_connection_call(
                    connection, destination, path, interface, method, parameters, nil, G_DBUS_CALL_FLAGS_NONE, 10_000, nil,
                    done, Unmanaged.passRetained(box).toOpaque())
            }
            return try result.get()
        }

        /// Calls `handler` with each signal's parameters; the subscription lasts as long as the bus.
        func subscribe(
            sender: String, interface: String, member: String, _ handler: @escaping @MainActor (OpaquePointer) -> Void
        ) {
            let box = Unmanaged.passRetained(SignalBox(handler)).toOpaque()
            let received:
                @convention(c) (
                    OpaquePointer?, UnsafePointer<gchar>?, UnsafePointer<gchar>?, UnsafePointer<gchar>?,
                    UnsafePointer<gchar>?, OpaquePointer?, gpointer?
                ) -> Void = { _, _, _, _, _, parameters, data in
                    guard let parameters else { return }
                    let box = Unmanaged<SignalBox>.fromOpaque(data!).takeUnretainedValue()
                    MainActor.assumeIsolated { box.handler(parameters) }
                }
            g_dbus_connection_signal_subscribe(
                connection, sender, interface, member, nil, nil, G_DBUS_SIGNAL_FLAGS_NONE, received, box, nil)
        }
    }

    /// A D-Bus call that failed, with GIO's message.
    struct DBusError: Error {
        var message: String
    }

    private final class ReplyBox {
        let complete: (_ reply: OpaquePointer?, _ error: String?) -> Void
        init(_ complete: @escaping (_ reply: OpaquePointer?, _ error: String?) -> Void) { self.complete = complete }
    }

    private final class SignalBox {
        let handler: @MainActor (OpaquePointer) -> Void
        init(_ handler: @escaping @MainActor (OpaquePointer) -> Void) { self.handler = handler }
    }
#endif
