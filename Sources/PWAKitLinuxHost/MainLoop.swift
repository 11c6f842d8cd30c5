#if WebKitGTK
    import CWebKitGTK

    /// Runs GTK's main loop on the main thread with Swift concurrency working inside it.
    ///
    /// On Linux nothing drains libdispatch's main queue while `gtk_main()` owns the main
    /// thread, so `@MainActor` work would never run. As CoreFoundation does for its run loop,
    /// the main queue's eventfd is watched from the GLib loop and drained when it fires.
    @MainActor
    enum MainLoop {
        private static var installed = false

        /// Starts draining the main queue from the GLib main loop (once).
        static func bridgeDispatch() {
            guard !installed else { return }
            installed = true
            let fd = _dispatch_get_main_queue_handle_4CF()
            let callback: @convention(c) (Int32, GIOCondition, gpointer?) -> gboolean = { fd, _, _ in
                pwakit_drain_eventfd(fd)
                _dispatch_main_queue_callback_4CF(nil)
                return 1
            }
            g_unix_fd_add(fd, G_IO_IN, callback, nil)
        }

        /// Runs the loop until ``quit()``.
        static func run() {
            bridgeDispatch()
            gtk_main()
        }

        /// Ends ``run()``.
        static func quit() {
            gtk_main_quit()
        }
    }
#endif
