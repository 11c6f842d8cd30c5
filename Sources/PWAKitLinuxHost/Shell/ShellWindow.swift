#if WebKitGTK
    import CWebKitGTK
    import Foundation
    public import PWAKitHost

    /// One window holding a home view (the launcher's page) and, over it, one app at a time
    /// under a native bar: a button back home (also Alt+Left), the app's name and its state.
    ///
    /// Each view is a ``LinuxHost`` of its own: its own web context, website data, origin policy
    /// and bridge, so an app's pages never share storage or modules with the home page.
    @MainActor
    public final class ShellWindow {
        /// The window's title.
        public let title: String
        /// Its size in pixels.
        public let width: Int
        /// Its size in pixels.
        public let height: Int
        /// Called when the person asks to go back home (the bar's button, Alt+Left).
        public var onBack: (@MainActor () -> Void)?
        /// Called when the window is minimised (false) or shown again (true).
        public var onVisibilityChanged: (@MainActor (Bool) -> Void)?
        /// Called when an app's run ends by itself (its host finished with this status).
        public var onAppFinished: (@MainActor (Int32) -> Void)?

        var window: UnsafeMutablePointer<GtkWidget>!
        var stack: UnsafeMutablePointer<GtkWidget>!
        var bar: UnsafeMutablePointer<GtkWidget>!
        var appPage: UnsafeMutablePointer<GtkWidget>?
        var home: LinuxHost?
        /// The app shown over the home view.
        public private(set) var app: LinuxHost?
        /// Hosts whose views are gone, kept alive until the window closes: WebKit may still call
        /// back with them as user data while it tears a view down.
        var retired: [LinuxHost] = []
        var exitStatus: Int32 = 0
        var running = false

        /// A window of `width` × `height` pixels.
        public init(title: String, width: Int = 1024, height: Int = 768) {
            self.title = title
            self.width = width
            self.height = height
        }

        /// Opens the window with `home` in it, calls `started` once it is built, and runs until
        /// the window closes or ``stop(_:)``; returns the exit status.
        public func run(home: LinuxHost, started: @MainActor (ShellWindow) -> Void = { _ in }) throws(HostError) -> Int32 {
            var argc: Int32 = 0
            guard gtk_init_check(&argc, nil) != 0 else {
                throw HostError(.engineUnavailable, "cannot open a display (is DISPLAY set? try xvfb-run)")
            }
            MainLoop.bridgeDispatch()
            window = gtk_window_new(GTK_WINDOW_TOPLEVEL)
            gtk_window_set_title(pwakit_window(window), title)
            gtk_window_set_default_size(pwakit_window(window), Int32(width), Int32(height))
            connect(window, "destroy", Self.onDestroy)
            connect(window, "key-press-event", Self.onKeyPress)
            connect(window, "window-state-event", Self.onWindowState)
            stack = gtk_stack_new()
            gtk_stack_set_transition_type(pwakit_stack(stack), GTK_STACK_TRANSITION_TYPE_NONE)
            gtk_container_add(pwakit_container(window), stack)
            self.home = home
            home.onFinish = { [weak self] status in self?.stop(status) }
            let view = try home.makeEmbeddedView()
            gtk_stack_add_named(pwakit_stack(stack), view, "home")
            gtk_widget_show_all(window)
            running = true
            started(self)
            MainLoop.run()
            return exitStatus
        }

        /// Shows `host` over the home view under the native bar, titled `title`.
        public func present(_ host: LinuxHost, title: String, status: String) throws(HostError) {
            dismiss()
            let page = gtk_box_new(GTK_ORIENTATION_VERTICAL, 0)!
            bar = gtk_header_bar_new()
            gtk_header_bar_set_title(pwakit_header_bar(bar), title)
            gtk_header_bar_set_subtitle(pwakit_header_bar(bar), status)
            let back = gtk_button_new_with_mnemonic("‹ _Apps")!
            gtk_widget_set_tooltip_text(back, "Back to the launcher (Alt+Left)")
            connect(back, "clicked", Self.onBackClicked)
            gtk_header_bar_pack_start(pwakit_header_bar(bar), back)
            gtk_box_pack_start(pwakit_box(page), bar, 0, 0, 0)
            host.onFinish = { [weak self] status in self?.onAppFinished?(status) }
            let view = try host.makeEmbeddedView()
            gtk_box_pack_start(pwakit_box(page), view, 1, 1, 0)
            gtk_stack_add_named(pwakit_stack(stack), page, "app")
            gtk_widget_show_all(page)
            gtk_stack_set_visible_child(pwakit_stack(stack), page)
            gtk_widget_grab_focus(pwakit_widget(host.webView))
            appPage = page
            app = host
            home?.visibilityChanged(false)
        }

        /// The state line under the app's name.
        public func setStatus(_ text: String) {
            guard appPage != nil, let bar else { return }
            gtk_header_bar_set_subtitle(pwakit_header_bar(bar), text)
        }

        /// Removes the app shown, if any, and shows the home view again.
        public func dismiss() {
            guard let page = appPage else { return }
            if let app { retired.append(app) }
            app = nil
            appPage = nil
            bar = nil
            gtk_widget_destroy(page)
            if let home {
                if let view = gtk_stack_get_child_by_name(pwakit_stack(stack), "home") {
                    gtk_stack_set_visible_child(pwakit_stack(stack), view)
                }
                gtk_widget_grab_focus(pwakit_widget(home.webView))
                home.visibilityChanged(true)
            }
        }

        /// Ends the run; ``run(home:started:)`` returns `status`.
        public func stop(_ status: Int32) {
            guard running else { return }
            running = false
            exitStatus = status
            MainLoop.quit()
        }

        /// The host on screen: the app when one is shown, else home.
        public var visible: LinuxHost? { app ?? home }

        /// Saves what the window shows as a PNG: the visible page and, over an app, the native
        /// bar above it. Returns the image's size, or nil when it could not be taken.
        public func screenshot(to path: String) async -> (width: Int, height: Int)? {
            guard let host = visible, let page = await host.visibleSurface() else { return nil }
            defer { cairo_surface_destroy(page) }
            let pageWidth = cairo_image_surface_get_width(page)
            let pageHeight = cairo_image_surface_get_height(page)
            let barHeight = appPage != nil && bar != nil ? gtk_widget_get_allocated_height(bar) : 0
            let image = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, pageWidth, pageHeight + barHeight)
            defer { cairo_surface_destroy(image) }
            let context = cairo_create(image)
            if barHeight > 0, let bar { gtk_widget_draw(bar, context) }
            cairo_set_source_surface(context, page, 0, Double(barHeight))
            cairo_paint(context)
            cairo_destroy(context)
            guard cairo_surface_write_to_png(image, path) == CAIRO_STATUS_SUCCESS else { return nil }
            return (Int(pageWidth), Int(pageHeight + barHeight))
        }

        func connect<T, F>(_ instance: UnsafeMutablePointer<T>, _ signal: String, _ callback: F) {
            pwakit_signal_connect(
                instance, signal, unsafeBitCast(callback, to: GCallback.self), Unmanaged.passUnretained(self).toOpaque())
        }

        static func shell(_ data: gpointer?) -> ShellWindow {
            Unmanaged<ShellWindow>.fromOpaque(data!).takeUnretainedValue()
        }

        static let onDestroy: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
            let shell = ShellWindow.shell(data)
            MainActor.assumeIsolated { shell.stop(shell.exitStatus) }
        }

        static let onBackClicked: @convention(c) (UnsafeMutablePointer<GtkWidget>?, gpointer?) -> Void = { _, data in
            let shell = ShellWindow.shell(data)
            MainActor.assumeIsolated { shell.onBack?() }
        }

        static let onWindowState:
            @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventWindowState>?, gpointer?) -> gboolean =
                {
                    _, event, data in
                    guard let event, event.pointee.changed_mask.rawValue & GDK_WINDOW_STATE_ICONIFIED.rawValue != 0 else {
                        return 0
                    }
                    let visible = event.pointee.new_window_state.rawValue & GDK_WINDOW_STATE_ICONIFIED.rawValue == 0
                    let shell = ShellWindow.shell(data)
                    MainActor.assumeIsolated {
                        shell.visible?.visibilityChanged(visible)
                        shell.onVisibilityChanged?(visible)
                    }
                    return 0
                }

        static let onKeyPress:
            @convention(c) (UnsafeMutablePointer<GtkWidget>?, UnsafeMutablePointer<GdkEventKey>?, gpointer?) ->
                gboolean = { _, event, data in
                    guard let event else { return 0 }
                    let alt = event.pointee.state & GDK_MOD1_MASK.rawValue != 0
                    guard alt, event.pointee.keyval == UInt32(GDK_KEY_Left) else { return 0 }
                    let shell = ShellWindow.shell(data)
                    return MainActor.assumeIsolated {
                        guard shell.appPage != nil else { return 0 }
                        shell.onBack?()
                        return 1
                    }
                }
    }

    extension LinuxHost {
        /// The visible part of the page as a cairo image surface (the caller destroys it).
        func visibleSurface() async -> OpaquePointer? {
            let surface = await withCheckedContinuation { (continuation: CheckedContinuation<Surface, Never>) in
                let box = Unmanaged.passRetained(SurfaceBox(continuation)).toOpaque()
                let done: @convention(c) (UnsafeMutablePointer<GObject>?, OpaquePointer?, gpointer?) -> Void = {
                    object, result, data in
                    let box = Unmanaged<SurfaceBox>.fromOpaque(data!).takeRetainedValue()
                    var error: UnsafeMutablePointer<GError>?
                    let view = object.map { UnsafeMutableRawPointer($0).assumingMemoryBound(to: WebKitWebView.self) }
                    let surface = webkit_web_view_get_snapshot_finish(view, result, &error)
                    if let error { g_error_free(error) }
                    box.continuation.resume(returning: Surface(pointer: surface))
                }
                webkit_web_view_get_snapshot(
                    webView, WEBKIT_SNAPSHOT_REGION_VISIBLE, WEBKIT_SNAPSHOT_OPTIONS_NONE, nil, done, box)
            }
            return surface.pointer
        }
    }

    /// A cairo surface handed from WebKit's callback to the main actor that asked for it.
    struct Surface: @unchecked Sendable {
        let pointer: OpaquePointer?
    }

    /// Carries a continuation through a C callback's user data.
    final class SurfaceBox {
        let continuation: CheckedContinuation<Surface, Never>
        init(_ continuation: CheckedContinuation<Surface, Never>) { self.continuation = continuation }
    }
#endif
