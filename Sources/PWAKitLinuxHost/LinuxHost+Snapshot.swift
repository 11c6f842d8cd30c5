#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import PWAKitCore

    extension LinuxHost {
        /// Waits for two animation frames (the first paint after the awaited state), then
        /// saves the visible view as a PNG and ends the run.
        func takeSnapshotAfterPaint() {
            guard !snapshotStarted else { return }
            snapshotStarted = true
            let body =
                "return new Promise(function (resolve) { requestAnimationFrame(function () { requestAnimationFrame(function () { resolve(true); }); }); });"
            let painted: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
                object, result, data in
                let host = LinuxHost.host(data)
                MainActor.assumeIsolated {
                    var error: UnsafeMutablePointer<GError>?
                    let value = webkit_web_view_call_async_javascript_function_finish(host.webView, result, &error)
                    if let value { g_object_unref(value) }
                    if let error { g_error_free(error) }
                    host.snapshot()
                }
            }
            webkit_web_view_call_async_javascript_function(
                webView, body, -1, nil, "pwakit-paint", nil, nil, painted, selfPointer)
        }

        func snapshot() {
            let done: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
                _, result, data in
                let host = LinuxHost.host(data)
                MainActor.assumeIsolated { host.snapshotTaken(result) }
            }
            webkit_web_view_get_snapshot(
                webView, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, done, selfPointer)
        }

        func snapshotTaken(_ result: OpaquePointer?) {
            var error: UnsafeMutablePointer<GError>?
            guard let path = options.screenshot?.path else { return }
            guard let surface = webkit_web_view_get_snapshot_finish(webView, result, &error) else {
                let message = error.map { String(cString: $0.pointee.message) } ?? "no image"
                if let error { g_error_free(error) }
                emitLine(["event": "error", "code": "snapshot_failed", "message": .string(message)])
                finish(4)
                return
            }
            let status = cairo_surface_write_to_png(surface, path)
            let width = cairo_image_surface_get_width(surface)
            let height = cairo_image_surface_get_height(surface)
            cairo_surface_destroy(surface)
            guard status == CAIRO_STATUS_SUCCESS else {
                emitLine(["event": "error", "code": "snapshot_failed", "message": .string("cannot write \(path)")])
                finish(4)
                return
            }
            emitLine([
                "event": "screenshot", "path": .string(path), "width": .number(Double(width)),
                "height": .number(Double(height)),
            ])
            finish(0)
        }
    }
#endif
