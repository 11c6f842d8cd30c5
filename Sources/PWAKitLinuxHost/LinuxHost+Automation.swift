#if WebKitGTK
    import CWebKitGTK
    public import PWAKitCore
    import PWAKitHost

    /// Driving a host from Swift: what benchmarks and tools use.
    extension LinuxHost {
        /// The name of the floor echo handler (``HostOptions/floorEcho``).
        public static let floorHandlerName = "echo"

        static let onFloorEcho:
            @convention(c) (
                UnsafeMutablePointer<WebKitUserContentManager>?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?
            ) -> gboolean = { _, value, reply, data in
                // NB: the floor does only what any handler must: read the text, answer it.
                let host = LinuxHost.host(data)
                MainActor.assumeIsolated { host.arrivals?.append(.now) }
                guard let value, let reply, let raw = jsc_value_to_string(value) else { return 0 }
                let answer = jsc_value_new_string(jsc_value_get_context(value), raw)
                g_free(raw)
                webkit_script_message_reply_return_value(reply, answer)
                g_object_unref(answer)
                return 1
            }

        /// Sends an event to the current page, if it has the bridge (`window.pwakit._handleEvent`).
        public func sendEvent(_ event: BridgeEvent) {
            emit(event)
        }

        /// Ends the run; ``run()`` returns `status`.
        public func stop(_ status: Int32) {
            finish(status)
        }

        /// Starts recording the arrival time of every message (replacing what was recorded).
        public func recordArrivals() {
            arrivals = []
        }

        /// Stops recording and returns the arrival times.
        public func takeArrivals() -> [ContinuousClock.Instant] {
            defer { arrivals = nil }
            return arrivals ?? []
        }

        /// Runs `body` as an async function in the top frame (in `world`, or the page's world)
        /// and returns its result as JSON text, or nil if it threw.
        public func evaluate(function body: String, world: String? = nil) async -> String? {
            await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
                let box = Unmanaged.passRetained(ContinuationBox(continuation)).toOpaque()
                let done: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
                    object, result, data in
                    let box = Unmanaged<ContinuationBox>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let view = object.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WebKitWebView.self) }
                    let value = webkit_web_view_call_async_javascript_function_finish(view, result, &error)
                    if let error { g_error_free(error) }
                    var text: String?
                    if let value {
                        if let json = jsc_value_to_json(value, 0) {
                            text = String(cString: json)
                            g_free(json)
                        }
                        g_object_unref(value)
                    }
                    box.continuation.resume(returning: text)
                }
                webkit_web_view_call_async_javascript_function(webView, body, -1, nil, world, nil, nil, done, box)
            }
        }
    }

    /// Carries a continuation through a C callback's user data.
    final class ContinuationBox {
        let continuation: CheckedContinuation<String?, Never>
        init(_ continuation: CheckedContinuation<String?, Never>) { self.continuation = continuation }
    }
#endif
