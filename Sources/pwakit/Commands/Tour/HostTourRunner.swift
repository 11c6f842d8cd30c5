#if WebKitGTK
    import Foundation
    import PWAKitCore
    import PWAKitHost
    import PWAKitLinuxHost

    /// A window a ``HostTour`` can walk: its shell, where the runner reports, and what it does
    /// for the steps that only make sense there.
    @MainActor
    protocol TourStage: AnyObject {
        /// The window.
        var shell: ShellWindow { get }
        /// Prints one JSON line.
        func output(_ object: [String: JSONValue])
        /// Waits until the app `appId` is on screen and ready; nil when it is, else why not.
        func waitForApp(_ appId: String, timeout: Duration) async -> String?
        /// Presses the native bar's back button; nil when done, else why not.
        func pressBack() -> String?
    }

    extension TourStage {
        /// Opens the window with `home` and runs until it closes; `started` runs once it is built.
        /// The exit status: the window's, 5 without a display, 2 when the window cannot be made.
        func runWindow(home: LinuxHost, started: @escaping @MainActor () async -> Void) -> Int32 {
            do {
                return try shell.run(home: home) { _ in
                    Task { @MainActor in await started() }
                }
            } catch {
                Console.writeError("error: \(error.message)")
                return error.code == .engineUnavailable ? 5 : 2
            }
        }
    }

    /// Runs a ``HostTour`` in a window, one step at a time, each reported as a JSON line; the
    /// first step that fails (or times out) ends the tour with exit status 3.
    @MainActor
    struct HostTourRunner {
        let app: any TourStage
        let tour: HostTour

        func run() async -> Int32 {
            for (index, step) in tour.steps.enumerated() {
                let started = ContinuousClock.now
                let failure = await perform(step)
                let elapsed = (ContinuousClock.now - started).components
                var line: [String: JSONValue] = [
                    "event": "tourStep", "index": .number(Double(index)), "step": .string(step.description),
                    "ok": .bool(failure == nil),
                    "ms": .number(Double(elapsed.seconds * 1000) + Double(elapsed.attoseconds) / 1e15),
                ]
                if let failure { line["message"] = .string(failure) }
                app.output(line)
                if failure != nil { return 3 }
            }
            app.output(["event": "tourFinished", "steps": .number(Double(tour.steps.count))])
            return 0
        }

        /// Does `step`; nil when it succeeded, else why not.
        func perform(_ step: HostTour.Step) async -> String? {
            switch step {
            case .fill(let fields):
                for (selector, value) in fields {
                    let body = """
                        const el = document.querySelector(\(quoted(selector)));
                        if (!el || el.getClientRects().length === 0) return false;
                        el.focus(); el.value = \(quoted(value));
                        el.dispatchEvent(new Event('input', { bubbles: true }));
                        el.dispatchEvent(new Event('change', { bubbles: true }));
                        return true;
                        """
                    if !(await poll(body)) { return "no visible field \(selector)" }
                }
                return nil
            case .click(let selector):
                let body = """
                    const el = document.querySelector(\(quoted(selector)));
                    if (!el || el.getClientRects().length === 0 || el.disabled) return false;
                    el.focus(); el.click(); return true;
                    """
                return await poll(body) ? nil : "no visible, enabled element \(selector)"
            case .copy(let from, let to):
                let body = """
                    const source = document.querySelector(\(quoted(from)));
                    const field = document.querySelector(\(quoted(to)));
                    const text = source ? source.textContent.trim() : '';
                    if (!text || !field || field.getClientRects().length === 0) return false;
                    field.focus(); field.value = text;
                    field.dispatchEvent(new Event('input', { bubbles: true }));
                    field.dispatchEvent(new Event('change', { bubbles: true }));
                    return true;
                    """
                return await poll(body) ? nil : "\(from) showed no text, or \(to) is not a visible field"
            case .waitFor(let selector):
                let body = """
                    const el = document.querySelector(\(quoted(selector)));
                    return !!el && el.getClientRects().length > 0;
                    """
                return await poll(body) ? nil : "\(selector) was not shown"
            case .waitForText(let text):
                let body = "return !!document.body && document.body.innerText.includes(\(quoted(text)));"
                return await poll(body) ? nil : "the page never showed “\(text)”"
            case .waitForApp(let appId):
                return await app.waitForApp(appId, timeout: tour.timeout)
            case .screenshot(let path):
                _ = await app.shell.visible?.evaluate(
                    function:
                        "return new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true))));")
                guard let size = await app.shell.screenshot(to: path) else { return "cannot save \(path)" }
                app.output([
                    "event": "screenshot", "path": .string(path), "width": .number(Double(size.width)),
                    "height": .number(Double(size.height)),
                ])
                return nil
            case .back:
                return app.pressBack()
            case .touch(let path):
                return FileManager.default.createFile(atPath: path, contents: Data()) ? nil : "cannot create \(path)"
            case .waitForFile(let path):
                return await until { FileManager.default.fileExists(atPath: path) } ? nil : "\(path) never appeared"
            }
        }

        /// Runs `body` in the view on screen until it answers true, or the step's time is up.
        func poll(_ body: String) async -> Bool {
            let deadline = ContinuousClock.now + tour.timeout
            while ContinuousClock.now < deadline {
                if let host = app.shell.visible, await host.evaluate(function: body) == "true" { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        func until(_ condition: @MainActor () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + tour.timeout
            while ContinuousClock.now < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(50))
            }
            return false
        }

        func quoted(_ text: String) -> String { JSONSerializer.serialize(.string(text)) }
    }
#endif
