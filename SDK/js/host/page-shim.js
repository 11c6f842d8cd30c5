// The page-world shim (see BridgeScripts in PWAKitHost): it rebuilds the seed's
// `window.webkit.messageHandlers.pwakit.postMessage`, hands message text to the isolated-world
// relay over a DOM event, and routes answers to `window.pwakit._handleResponse` and events to
// `window.pwakit._handleEvent`, as the seed expects.
// The host fills in each upper-case PWAKIT name between double underscores (BridgeScripts.pageShim).
(function () {
  'use strict';
  if (window.top !== window || location.protocol + '//' + location.host !== __PWAKIT_ORIGIN__) return;
  var dispatch = EventTarget.prototype.dispatchEvent;
  var stringify = JSON.stringify;
  var parse = JSON.parse;
  function post(message) {
    var text = typeof message === 'string' ? message : stringify(message);
    if (typeof text !== 'string') throw new TypeError('postMessage: the message has no JSON form');
    dispatch.call(document, new CustomEvent(__PWAKIT_MESSAGE_EVENT__, { detail: text }));
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
  document.addEventListener(__PWAKIT_ANSWER_EVENT__, function (event) {
    if (typeof event.detail !== 'string') return;
    var value;
    try { value = parse(event.detail); } catch (_) { return; }
    // NB: answers to a batch come as one array, in the order the messages were posted.
    if (isArray(value)) { for (var i = 0; i < value.length; i++) route(value[i]); }
    else route(value);
  }, true);
  var handler = Object.freeze({ postMessage: post });
  var handlers = {};
  handlers[__PWAKIT_HANDLER__] = handler;
  Object.defineProperty(window, 'webkit', {
    value: Object.freeze({ messageHandlers: Object.freeze(handlers) }), enumerable: false, configurable: false,
    writable: false
  });
})();
