import Foundation
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

    /// The isolated-world relay (`SDK/js/host/relay.js`, tested with node), bound to ``origin``.
    public var relay: String {
        Self.fill(
            EmbeddedHostScripts.relay,
            [
                "ORIGIN": Self.literal(origin), "HANDLER": Self.literal(Self.handlerName),
                "MAX_BYTES": String(maxMessageBytes), "ANSWER_EVENT": Self.literal(Self.answerEvent),
                "MESSAGE_EVENT": Self.literal(Self.messageEvent), "LATE_ANSWER": Self.lateAnswerFunction,
                "BATCH_CHARACTERS": String(Self.batchCharacters), "BATCH_MESSAGES": String(Self.batchMessages),
                "BATCHING": batching ? "true" : "false",
            ])
    }

    /// The page-world shim (`SDK/js/host/page-shim.js`, tested with node): the seed's
    /// `window.webkit.messageHandlers.pwakit`.
    public var pageShim: String {
        Self.fill(
            EmbeddedHostScripts.pageShim,
            [
                "ORIGIN": Self.literal(origin), "HANDLER": Self.literal(Self.handlerName),
                "ANSWER_EVENT": Self.literal(Self.answerEvent), "MESSAGE_EVENT": Self.literal(Self.messageEvent),
            ])
    }

    /// `template` with each `__PWAKIT_NAME__` replaced by `values[NAME]`, in one pass (a value is
    /// never scanned again, so an origin cannot smuggle in a name). A name without a value is a
    /// programming error, caught by the tests of every script.
    static func fill(_ template: String, _ values: [String: String]) -> String {
        let marker = "__PWAKIT_"
        var out = ""
        var rest = Substring(template)
        while let start = rest.range(of: marker) {
            out += rest[..<start.lowerBound]
            let after = rest[start.upperBound...]
            guard let end = after.range(of: "__"),
                let value = values[String(after[..<end.lowerBound])]
            else {
                out += marker
                rest = after
                continue
            }
            out += value
            rest = after[end.upperBound...]
        }
        return out + rest
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
