public import PWAKitCore

/// The scripts a WebKit host injects at document start so a page can reach the bridge.
///
/// The native message handler lives in an isolated script world that page scripts cannot
/// touch. Two scripts bind it to one exact origin (the top frame's, decided natively before
/// the document exists; each script re-checks it and does nothing elsewhere), and the page
/// world also gets the handshake and the SDK under the same guard (``pageScripts(handshake:)``):
///
/// - ``relay`` runs in the isolated world. It takes message text from the page-world
///   ``pageShim`` over a DOM event, enforces the size limit before anything crosses into
///   the host process, posts to the native handler, and hands the Promise reply back.
///   Without ``batching`` every message is posted as its text, as the seed's handler expects.
///   With it, messages posted in the same task cross together: a lone message is posted as its
///   text, several as a batch (see ``batching``), which the host answers with ``BridgeBatch``.
/// - ``pageShim`` runs in the page world and rebuilds the seed's
///   `window.webkit.messageHandlers.pwakit.postMessage`; answers reach the page as the seed
///   expects, through `window.pwakit._handleResponse`.
///
/// Frames other than the top frame and pages of any other origin get neither script, so
/// they see no `window.webkit` at all.
public struct BridgeScripts: Sendable {
    /// The name of the native message handler, as in the seed.
    public static let handlerName = "pwakit"
    /// The isolated script world the native handler is registered in.
    public static let worldName = "pwakit-bridge"
    /// The DOM event carrying message text from the page to the relay.
    static let messageEvent = "pwakit:message"
    /// The DOM event carrying answer text from the relay to the page.
    static let answerEvent = "pwakit:answer"
    /// The relay's function, in the isolated world, that takes an answer the host sends late:
    /// one to a message of a batch whose handler had not finished when the batch was answered.
    public static let lateAnswerFunction = "__pwakitLateAnswer"
    /// At most this many messages cross to the host in one batch.
    public static let batchMessages = 256
    /// A batch is sent before it would hold more than this many UTF-16 units of message text.
    public static let batchCharacters = 65_536

    /// The origin (`scheme://host[:port]`) the scripts are bound to.
    public var origin: String
    /// The size limit enforced before a message leaves the page.
    public var maxMessageBytes: Int
    /// Whether the relay sends the messages a page posts in one task as one native message.
    ///
    /// A batch is an object `{ document, messages }`: `messages` the texts in posting order (at
    /// most ``batchMessages``, about ``batchCharacters``), `document` a random token the relay
    /// draws once per document. The host answers it with ``BridgeBatch`` and sends late answers
    /// with ``lateAnswerScript(_:document:)``, which the relay drops unless the token is its own
    /// (so a late answer never reaches a successor document of the same origin). Off by default:
    /// a host's message handler must handle batches before it turns this on.
    public var batching: Bool

    /// Scripts bound to `origin` with the limits of `limits`; `batching` as in ``batching``.
    public init(origin: String, limits: BridgeLimits = BridgeLimits(), batching: Bool = false) {
        self.origin = origin
        self.maxMessageBytes = limits.maxMessageBytes
        self.batching = batching
    }

    /// A JavaScript string literal for `text`.
    static func literal(_ text: String) -> String {
        JSONSerializer.serialize(.string(text))
    }

    /// The guard every script starts with: top frame of the bound origin only.
    var originGuard: String {
        "if (window.top !== window || location.protocol + '//' + location.host !== \(Self.literal(origin))) return;"
    }

    /// The isolated-world relay.
    public var relay: String {
        """
        (function () {
          'use strict';
          \(originGuard)
          var handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers[\(Self.literal(Self.handlerName))];
          if (!handler) return;
          var MAX = \(maxMessageBytes);
          var dispatch = EventTarget.prototype.dispatchEvent;
          function answer(text) {
            dispatch.call(document, new CustomEvent(\(Self.literal(Self.answerEvent)), { detail: text }));
          }
          function utf8Length(text) {
            var bytes = 0;
            for (var i = 0; i < text.length; i++) {
              var c = text.charCodeAt(i);
              if (c < 0x80) bytes += 1;
              else if (c < 0x800) bytes += 2;
              else if (c >= 0xD800 && c < 0xDC00 && i + 1 < text.length) { bytes += 4; i++; }
              else bytes += 3;
            }
            return bytes;
          }
          function tooLarge(text, size) {
            var id;
            try { var parsed = JSON.parse(text); if (parsed && typeof parsed.id === 'string') id = parsed.id; } catch (_) {}
            var message = 'the message is ' + size + ' bytes; the limit is ' + MAX;
            var details = { limit: MAX, size: size };
            answer(JSON.stringify(id === undefined
              ? { type: 'bridge.error', data: { code: 'payload_too_large', error: message, details: details } }
              : { id: id, success: false, error: message, code: 'payload_too_large', details: details }));
          }
          function post(message) {
            handler.postMessage(message).then(function (reply) {
              if (typeof reply === 'string' && reply !== '') answer(reply);
            }, function () {});
          }
          \(batching ? batchingRelay : "var send = post;")
          document.addEventListener(\(Self.literal(Self.messageEvent)), function (event) {
            var text = event.detail;
            if (typeof text !== 'string') return;
            // NB: every UTF-16 unit is at least one UTF-8 byte and at most three.
            var size = text.length * 3 <= MAX ? 0 : utf8Length(text);
            if (size > MAX) { tooLarge(text, size); return; }
            send(text);
          }, true);
        })();
        """
    }

    /// The relay's `send` when ``batching`` is on.
    var batchingRelay: String {
        """
        // Messages posted in one task cross to the host together: one native message, one
          // reply carrying the answers that were ready at once (the rest arrive later, through
          // `window.\(Self.lateAnswerFunction)`, addressed to this document).
          var token = '';
          try {
            var words = window.crypto.getRandomValues(new Uint32Array(4));
            for (var w = 0; w < words.length; w++) token += words[w].toString(16) + '.';
          } catch (_) {}
          if (token === '') token = String(Math.random()).slice(2) + '.' + String(Date.now());
          var queue = [];
          var queuedChars = 0;
          var scheduled = false;
          var enqueueMicrotask = window.queueMicrotask.bind(window);
          function flush() {
            scheduled = false;
            if (queue.length === 0) return;
            var batch = queue.length === 1 ? queue[0] : { document: token, messages: queue };
            queue = [];
            queuedChars = 0;
            post(batch);
          }
          window.\(Self.lateAnswerFunction) = function (document, text) {
            if (document === token && typeof text === 'string') answer(text);
          };
          function send(text) {
            if (queue.length > 0 && queuedChars + text.length > \(Self.batchCharacters)) flush();
            queue.push(text);
            queuedChars += text.length;
            if (queue.length >= \(Self.batchMessages)) flush();
            else if (!scheduled) { scheduled = true; enqueueMicrotask(flush); }
          }
        """
    }

    /// The page-world shim: the seed's `window.webkit.messageHandlers.pwakit`.
    public var pageShim: String {
        """
        (function () {
          'use strict';
          \(originGuard)
          var dispatch = EventTarget.prototype.dispatchEvent;
          var stringify = JSON.stringify;
          var parse = JSON.parse;
          function post(message) {
            var text = typeof message === 'string' ? message : stringify(message);
            if (typeof text !== 'string') throw new TypeError('postMessage: the message has no JSON form');
            dispatch.call(document, new CustomEvent(\(Self.literal(Self.messageEvent)), { detail: text }));
          }
          var isArray = Array.isArray;
          function route(value) {
            var bridge = window.pwakit;
            if (!bridge) return;
            if (value && typeof value.type === 'string' && value.id === undefined) {
              if (typeof bridge._handleEvent === 'function') bridge._handleEvent(value);
            } else if (typeof bridge._handleResponse === 'function') {
              bridge._handleResponse(value);
            }
          }
          document.addEventListener(\(Self.literal(Self.answerEvent)), function (event) {
            if (typeof event.detail !== 'string') return;
            var value;
            try { value = parse(event.detail); } catch (_) { return; }
            // NB: answers to a batch come as one array, in the order the messages were posted.
            if (isArray(value)) { for (var i = 0; i < value.length; i++) route(value[i]); }
            else route(value);
          }, true);
          var handler = Object.freeze({ postMessage: post });
          var handlers = Object.freeze({ \(Self.handlerName): handler });
          Object.defineProperty(window, 'webkit', {
            value: Object.freeze({ messageHandlers: handlers }), enumerable: false, configurable: false, writable: false
          });
        })();
        """
    }

    /// Every page-world script, in injection order: the shim, the handshake, the SDK.
    public func pageScripts(handshake: BridgeHandshake) -> [String] {
        [pageShim, guarded(handshake.javaScript), guarded(EmbeddedSDK.source)]
    }

    /// The longest document token a batch may carry.
    public static let maxDocumentToken = 64

    /// The script, for the isolated world ``worldName``, that hands the relay of the document
    /// whose token is `document` an answer the host sends after the batch it belongs to was
    /// answered (see ``BridgeBatch``). Any other document ignores it.
    public static func lateAnswerScript(_ answer: String, document: String) -> String {
        "window.\(lateAnswerFunction) && window.\(lateAnswerFunction)(\(literal(document)), \(literal(answer)));"
    }

    /// `script` run only in the top frame of the bound origin.
    func guarded(_ script: String) -> String {
        "(function () {\n\(originGuard)\n\(script)\n})();"
    }
}
