// The isolated-world relay (see BridgeScripts in PWAKitHost). It takes message text from the
// page-world shim over a DOM event, enforces the size limit before anything crosses into the
// host process, posts to the native handler, and hands the Promise reply back.
// The host fills in each upper-case PWAKIT name between double underscores (BridgeScripts.relay).
(function () {
  'use strict';
  if (window.top !== window || location.protocol + '//' + location.host !== __PWAKIT_ORIGIN__) return;
  var handler = window.webkit && window.webkit.messageHandlers && window.webkit.messageHandlers[__PWAKIT_HANDLER__];
  if (!handler) return;
  var MAX = __PWAKIT_MAX_BYTES__;
  var dispatch = EventTarget.prototype.dispatchEvent;
  function answer(text) {
    dispatch.call(document, new CustomEvent(__PWAKIT_ANSWER_EVENT__, { detail: text }));
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
  // Without batching every message is posted as its text, as the seed's handler expects. With it,
  // messages posted in one task cross to the host together: one native message, one reply
  // carrying the answers that were ready at once (the rest arrive later, through
  // `window.__PWAKIT_LATE_ANSWER__`, addressed to this document).
  function batched() {
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
    window.__PWAKIT_LATE_ANSWER__ = function (document, text) {
      if (document === token && typeof text === 'string') answer(text);
    };
    return function send(text) {
      if (queue.length > 0 && queuedChars + text.length > __PWAKIT_BATCH_CHARACTERS__) flush();
      queue.push(text);
      queuedChars += text.length;
      if (queue.length >= __PWAKIT_BATCH_MESSAGES__) flush();
      else if (!scheduled) { scheduled = true; enqueueMicrotask(flush); }
    };
  }
  var send = __PWAKIT_BATCHING__ ? batched() : post;
  document.addEventListener(__PWAKIT_MESSAGE_EVENT__, function (event) {
    var text = event.detail;
    if (typeof text !== 'string') return;
    // NB: every UTF-16 unit is at least one UTF-8 byte and at most three.
    var size = text.length * 3 <= MAX ? 0 : utf8Length(text);
    if (size > MAX) { tooLarge(text, size); return; }
    send(text);
  }, true);
})();
