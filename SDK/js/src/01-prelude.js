/*
 * PWAKit JavaScript SDK.
 *
 * Built by scripts/embed-sdk from SDK/js/src/ (one file per concern, joined in
 * name order); edit those files, not this one.
 *
 * A classic script: it sets `globalThis.PWAKit` and routes the native side's
 * `window.pwakit._handleResponse` / `_handleEvent` to itself. A PWAKit host
 * injects it at document start; pages may also load it themselves, and
 * `pwakit.mjs` re-exports it for `import`. Loading it twice is harmless: the
 * second load reuses the first instance.
 *
 * Besides `call` and events it offers `PWAKit.modules` (modules as objects) and
 * counterparts of Web APIs (vibrate, share, clipboard, app badge, permissions) that use the
 * bridge inside a host and the Web API outside one.
 *
 * Wire protocol (page -> native):
 *   webkit.messageHandlers.pwakit.postMessage({id, module, action, payload?, timeoutMs})
 *   webkit.messageHandlers.pwakit.postMessage({id, cancel: true})
 *   (a host whose handshake lists the `textMessages` capability is posted the
 *   call's JSON text instead of the object)
 * Native -> page:
 *   pwakit._handleResponse({id, success: true, data?})
 *   pwakit._handleResponse({id, success: false, error, code, details?})
 *   pwakit._handleEvent({type, data?})   -> DOM CustomEvent("pwa:" + type)
 */
(function (root) {
  'use strict';

  var MARK = typeof Symbol === 'function' ? Symbol.for('pwakit.sdk') : '__pwakitSDK';

  var existing = root.PWAKit;
  if (existing && typeof existing === 'object' && existing[MARK] &&
      typeof existing[MARK].install === 'function') {
    // NB: a second copy (host-injected and page-shipped) must not fork the
    // pending-call table; re-assert routing and keep the first instance.
    existing[MARK].install();
    return;
  }

  var VERSION = '1.0.0';
  var HANDLER_NAME = 'pwakit';
  // NB: the native side refuses a timeoutMs above one day (invalid_message); so does the SDK.
  var MAX_TIMEOUT_MS = 86400000;
  var FINISHED_MEMORY = 1024;

  var config = {
    defaultTimeout: 30000,
    maxMessageBytes: 1048576,
    onDiagnostic: null
  };

