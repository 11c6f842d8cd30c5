#if WebKitGTK
    import CWebKitGTK
    import Foundation
    import PWAKitHost

    extension LinuxHost {
        /// Serves `app://` from the app's local bundle, as a secure, CORS-enabled scheme.
        func registerAppScheme(on context: UnsafeMutablePointer<WebKitWebContext>) {
            let callback: @convention(c) (UnsafeMutablePointer<WebKitURISchemeRequest>?, gpointer?) -> Void = { request, data in
                let host = LinuxHost.host(data)
                guard let request else { return }
                MainActor.assumeIsolated { host.serve(request) }
            }
            webkit_web_context_register_uri_scheme(
                context, "app", callback, selfPointer, nil)
            let security = webkit_web_context_get_security_manager(context)
            webkit_security_manager_register_uri_scheme_as_secure(security, "app")
            webkit_security_manager_register_uri_scheme_as_cors_enabled(security, "app")
        }

        func serve(_ request: UnsafeMutablePointer<WebKitURISchemeRequest>) {
            let uri = webkit_uri_scheme_request_get_uri(request).map { String(cString: $0) } ?? ""
            let method = webkit_uri_scheme_request_get_http_method(request).map { String(cString: $0) } ?? "GET"
            var headers: [String: String] = [:]
            if let raw = webkit_uri_scheme_request_get_http_headers(request) {
                for name in ["Range", "If-None-Match"] {
                    if let value = soup_message_headers_get_one(raw, name) { headers[name] = String(cString: value) }
                }
            }
            let answer: LocalBundleResponse =
                if let bundleServer {
                    bundleServer.respond(to: LocalBundleRequest(method: method, uri: uri, headers: headers))
                } else {
                    LocalBundleResponse(status: 404, reason: "Not Found", contentType: "text/plain", body: Data("no bundle".utf8))
                }
            let bytes = answer.body.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
            let stream = g_memory_input_stream_new_from_bytes(bytes)
            g_bytes_unref(bytes)
            let response = webkit_uri_scheme_response_new(stream, gint64(answer.body.count))
            g_object_unref(stream)
            webkit_uri_scheme_response_set_status(response, guint(answer.status), answer.reason)
            let soupHeaders = pwakit_response_headers_new()
            for (name, value) in answer.headers where name != "Content-Length" {
                soup_message_headers_append(soupHeaders, name, value)
            }
            // NB: the header list replaces the response's headers, content type included; set
            // it in the list too, or `nosniff` makes WebKit refuse scripts and styles.
            soup_message_headers_append(soupHeaders, "Content-Type", answer.contentType)
            // Takes ownership of the headers.
            webkit_uri_scheme_response_set_http_headers(response, soupHeaders)
            webkit_uri_scheme_response_set_content_type(response, answer.contentType)
            webkit_uri_scheme_request_finish_with_response(request, response)
            g_object_unref(response)
        }
    }
#endif
