#if WebKitGTK
    import CWebKitGTK
    import PWAKitCore
    import PWAKitHost

    /// A Promise reply WebKit waits for; answered exactly once, on the main thread.
    @MainActor
    final class PendingReply {
        private var reply: OpaquePointer?
        private let context: UnsafeMutablePointer<JSCContext>

        init(_ reply: OpaquePointer, context: UnsafeMutablePointer<JSCContext>) {
            webkit_script_message_reply_ref(reply)
            g_object_ref(context)
            self.reply = reply
            self.context = context
        }

        /// Resolves the page's Promise with `text` (or `undefined` when nil).
        func answer(_ text: String?) {
            guard let reply else { return }
            self.reply = nil
            let value = text.map { jsc_value_new_string(context, $0) } ?? jsc_value_new_undefined(context)
            webkit_script_message_reply_return_value(reply, value)
            g_object_unref(value)
            webkit_script_message_reply_unref(reply)
            g_object_unref(context)
        }

        isolated deinit {
            // NB: WebKit rejects a reply dropped unanswered; never leave one hanging.
            if let reply {
                webkit_script_message_reply_unref(reply)
                g_object_unref(context)
            }
        }
    }

    /// What the relay posted: one message's text, or the texts of a batch with the token of the
    /// document that posted it.
    enum Posted {
        case message(String)
        case batch([String], document: String)

        /// Reads `value`, or nil when it is neither a string nor a batch object
        /// (`{ document, messages }`: a token of at most ``BridgeScripts/maxDocumentToken``
        /// characters and an array of at most ``BridgeScripts/batchMessages`` strings).
        init?(_ value: UnsafeMutablePointer<JSCValue>) {
            if jsc_value_is_string(value) != 0 {
                guard let text = Self.string(value) else { return nil }
                self = .message(text)
                return
            }
            guard jsc_value_is_object(value) != 0, jsc_value_is_array(value) == 0,
                let token = jsc_value_object_get_property(value, "document")
            else { return nil }
            defer { g_object_unref(token) }
            guard let messages = jsc_value_object_get_property(value, "messages") else { return nil }
            defer { g_object_unref(messages) }
            guard jsc_value_is_string(token) != 0, let document = Self.string(token), !document.isEmpty,
                document.utf8.count <= BridgeScripts.maxDocumentToken,
                let texts = Self.strings(messages)
            else { return nil }
            self = .batch(texts, document: document)
        }

        /// The strings of `value`, an array of 1 to ``BridgeScripts/batchMessages`` strings.
        private static func strings(_ value: UnsafeMutablePointer<JSCValue>) -> [String]? {
            guard jsc_value_is_array(value) != 0, let length = jsc_value_object_get_property(value, "length") else {
                return nil
            }
            let count = Int(jsc_value_to_int32(length))
            g_object_unref(length)
            guard count > 0, count <= BridgeScripts.batchMessages else { return nil }
            var texts: [String] = []
            texts.reserveCapacity(count)
            for index in 0..<count {
                guard let element = jsc_value_object_get_property_at_index(value, UInt32(index)) else { return nil }
                defer { g_object_unref(element) }
                guard jsc_value_is_string(element) != 0, let text = Self.string(element) else { return nil }
                texts.append(text)
            }
            return texts
        }

        private static func string(_ value: UnsafeMutablePointer<JSCValue>) -> String? {
            guard let raw = jsc_value_to_string(value) else { return nil }
            defer { g_free(raw) }
            return String(cString: raw)
        }
    }

    extension LinuxHost {
        static let onMessage:
            @convention(c) (
                UnsafeMutablePointer<WebKitUserContentManager>?, UnsafeMutablePointer<JSCValue>?, OpaquePointer?, gpointer?
            ) -> gboolean = { _, value, reply, data in
                let host = LinuxHost.host(data)
                MainActor.assumeIsolated { host.arrivals?.append(.now) }
                guard let value, let reply else { return 0 }
                let pending = PendingReply(reply, context: jsc_value_get_context(value))
                // NB: the relay posts a string, or a batch object ({ document, messages }); anything else
                // is not from it.
                guard let posted = Posted(value) else {
                    MainActor.assumeIsolated { pending.answer(nil) }
                    return 1
                }
                MainActor.assumeIsolated { host.received(posted, reply: pending) }
                return 1
            }

        /// Routes one native message of the current document to the dispatcher.
        func received(_ posted: Posted, reply: PendingReply) {
            switch page.receive((posted, reply)) {
            case .refuse: reply.answer(nil)
            case .queued: break
            case .dispatch(let id): dispatch(posted, page: id, reply: reply)
            }
        }

        func dispatch(_ posted: Posted, page id: PageLoadID, reply: PendingReply) {
            let dispatcher = self.dispatcher!
            switch posted {
            case .message(let text):
                // NB: the dispatcher lives on the main thread too, so this runs at once: a handler
                // that does not suspend is answered before the task returns.
                Task.immediate { @MainActor in
                    reply.answer(await dispatcher.handleInlineJSON(text, from: id))
                }
            case .batch(let texts, let document):
                let generation = page.generation
                reply.answer(
                    BridgeBatch.answer(texts, page: id, dispatcher: dispatcher) { [weak self] answer in
                        guard let self, self.page.isCurrent(generation) else { return }
                        // NB: the next document may already be in the view before its commit reaches
                        // this thread; the token keeps the answer from it.
                        self.evaluate(
                            BridgeScripts.lateAnswerScript(answer, document: document), world: BridgeScripts.worldName)
                    })
            }
        }

        /// A new main-frame document was committed at `uri`: the previous page load ends (its
        /// calls are cancelled, late answers dropped) and, if the document's origin is granted,
        /// a new one starts.
        func documentCommitted(_ uri: String) {
            let grant = navigator.grant(forDocumentAt: uri)
            let origin = grant == .denied ? nil : Origin(url: uri).flatMap { $0.description == scriptedOrigin ? $0 : nil }
            let (generation, ended) = page.commit(bridged: origin != nil)
            for event in ended.returnedPushes { requeuePush(event) }
            for (_, reply) in ended.refused { reply.answer(nil) }
            let dispatcher = self.dispatcher!
            if let old = ended.closed {
                Task { await dispatcher.closePage(old) }
            }
            guard let origin else { return }
            let deliver: @Sendable (BridgeOutput) -> Void = { output in
                Task { @MainActor [weak self] in self?.deliver(output, generation: generation) }
            }
            Task { @MainActor in
                let id = await dispatcher.openPage(origin: origin.description, grant: grant, deliver: deliver)
                guard let (queued, pushes) = self.page.opened(id, generation: generation) else {
                    await dispatcher.closePage(id)
                    return
                }
                self.onPageEvent?(.opened(id, origin: origin.description))
                for (text, reply) in queued { self.dispatch(text, page: id, reply: reply) }
                for event in pushes { self.show(event) }
            }
        }

        /// Binds the injected scripts to the origin of the document about to load at `uri`
        /// (or removes them when that origin may not reach the bridge).
        func prepareScripts(for uri: String) {
            let grant = navigator.grant(forDocumentAt: uri)
            let origin = grant == .denied ? nil : Origin(url: uri)?.description
            guard origin != scriptedOrigin else { return }
            webkit_user_content_manager_remove_all_scripts(contentManager)
            scriptedOrigin = origin
            guard let origin else { return }
            let scripts = BridgeScripts(origin: origin, limits: limits, batching: true)
            add(scripts.relay, world: BridgeScripts.worldName)
            for script in scripts.pageScripts(handshake: handshake) + options.pageScripts { add(script, world: nil) }
        }

        private func add(_ source: String, world: String?) {
            let script =
                if let world {
                    webkit_user_script_new_for_world(
                        source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, world,
                        nil, nil)
                } else {
                    webkit_user_script_new(
                        source, WEBKIT_USER_CONTENT_INJECT_TOP_FRAME, WEBKIT_USER_SCRIPT_INJECT_AT_DOCUMENT_START, nil, nil)
                }
            webkit_user_content_manager_add_script(contentManager, script)
            webkit_user_script_unref(script)
        }

        /// Delivers an event to the page load `generation`, if it is still the current one.
        func deliver(_ output: BridgeOutput, generation: UInt64) {
            guard page.isCurrent(generation) else { return }
            evaluate(output.javaScript)
        }

        /// Sends `event` to the current page, if it has the bridge.
        func emit(_ event: BridgeEvent) {
            guard let id = page.openPage else { return }
            let dispatcher = self.dispatcher!
            Task { await dispatcher.emit(event, to: id) }
        }

        /// Runs `script` in the top frame, in the page world or the script world `world`.
        func evaluate(_ script: String, world: String? = nil) {
            webkit_web_view_evaluate_javascript(webView, script, -1, world, nil, nil, nil, nil)
        }

        // MARK: Host modules

        func pageReportedReady(_ caller: BridgeCaller) {
            guard let id = page.openPage, id == caller.pageLoad else { return }
            var line: [String: JSONValue] = ["event": "ready", "origin": .string(caller.origin)]
            if let builtAt {
                let elapsed = ContinuousClock.now - builtAt
                line["sinceStartMs"] = .number(
                    Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
            }
            emitLine(line)
            onPageEvent?(.ready(id, origin: caller.origin))
            if options.screenshot != nil && options.waitFor == .ready { takeSnapshotAfterPaint() }
        }

        func record(_ entry: ReportModule.Entry) {
            switch entry {
            case .log(let line, let origin):
                var object: [String: JSONValue] = ["event": "log", "origin": .string(origin), "message": .string(line.message)]
                if let data = line.data { object["data"] = data }
                emitLine(object)
            case .finish(let verdict, let origin):
                var object: [String: JSONValue] = [
                    "event": "finish", "origin": .string(origin), "passed": .number(Double(verdict.passed)),
                    "failed": .number(Double(verdict.failed)),
                ]
                if let data = verdict.data { object["data"] = data }
                emitLine(object)
                finish(verdict.failed == 0 ? 0 : 1)
            case .held(let label, let completed, let origin):
                var object: [String: JSONValue] = ["event": "held", "origin": .string(origin), "completed": .bool(completed)]
                if let label { object["label"] = .string(label) }
                emitLine(object)
            case .hideAndShow:
                hideAndShow()
            }
        }
    }
#endif
