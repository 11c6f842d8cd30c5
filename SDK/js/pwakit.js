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

  // ---------------------------------------------------------------- errors

  /**
   * An error from a PWAKit call: a stable `code`, a human `message`, optional
   * `details` (for example `{path: "payload.style"}`) and the call it belongs to.
   */
  class PWAKitError extends Error {
    constructor(message, options) {
      var opts = options && typeof options === 'object' ? options : {};
      super(typeof message === 'string' ? message : String(message));
      this.name = 'PWAKitError';
      this.code = typeof opts.code === 'string' && opts.code !== '' ? opts.code : 'module_error';
      this.details = opts.details;
      this.module = opts.module;
      this.action = opts.action;
      this.id = opts.id;
      if (opts.cause !== undefined) {
        this.cause = opts.cause;
      }
    }

    toJSON() {
      var out = { name: this.name, code: this.code, message: this.message };
      if (this.details !== undefined) out.details = this.details;
      if (this.module !== undefined) out.module = this.module;
      if (this.action !== undefined) out.action = this.action;
      if (this.id !== undefined) out.id = this.id;
      return out;
    }
  }

  // ------------------------------------------------------------- utilities

  function isObject(value) {
    return value !== null && typeof value === 'object';
  }

  /** Array.isArray, where a revoked Proxy (on which it throws) is no array. */
  function isArray(value) {
    try {
      return Array.isArray(value);
    } catch (_) {
      return false;
    }
  }

  function isRecord(value) {
    if (!isObject(value)) return false;
    try {
      return !Array.isArray(value);
    } catch (_) {
      return false; // a revoked Proxy
    }
  }

  function describe(value) {
    if (value === null) return 'null';
    if (value === undefined) return 'undefined';
    if (value === '') return 'an empty string';
    if (isArray(value)) return 'an array';
    var type = typeof value;
    return (type === 'object' ? 'an ' : 'a ') + type;
  }

  function diagnose(kind, message, extra) {
    var hook = config.onDiagnostic;
    if (typeof hook !== 'function') return;
    var info = { kind: kind, message: message };
    if (extra) {
      for (var key in extra) {
        if (Object.prototype.hasOwnProperty.call(extra, key)) info[key] = extra[key];
      }
    }
    try {
      hook(info);
    } catch (_) {
      // A faulty diagnostics hook must not break the bridge.
    }
  }

  function reportListenerError(err) {
    if (typeof root.reportError === 'function') {
      try {
        root.reportError(err);
        return;
      } catch (_) {
        // fall through
      }
    }
    if (typeof root.setTimeout === 'function') {
      root.setTimeout(function () { throw err; }, 0);
    }
  }

  /** Byte length of a string encoded as UTF-8 (lone surrogates count as U+FFFD). */
  function utf8Length(text) {
    var bytes = 0;
    for (var i = 0; i < text.length; i++) {
      var unit = text.charCodeAt(i);
      if (unit < 0x80) {
        bytes += 1;
      } else if (unit < 0x800) {
        bytes += 2;
      } else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
        var next = text.charCodeAt(i + 1);
        if (next >= 0xdc00 && next <= 0xdfff) {
          bytes += 4;
          i++;
        } else {
          bytes += 3;
        }
      } else {
        bytes += 3;
      }
    }
    return bytes;
  }

  var idCounter = 0;
  var idPrefix = randomToken();

  function randomToken() {
    var crypto = root.crypto;
    if (crypto && typeof crypto.getRandomValues === 'function') {
      try {
        var words = crypto.getRandomValues(new Uint32Array(2));
        return words[0].toString(36) + words[1].toString(36);
      } catch (_) {
        // fall back below
      }
    }
    return Math.floor(Math.random() * 0x100000000).toString(36) +
      Date.now().toString(36);
  }

  function newId() {
    var crypto = root.crypto;
    if (crypto && typeof crypto.randomUUID === 'function') {
      try {
        var uuid = crypto.randomUUID();
        if (typeof uuid === 'string' && uuid !== '' && !pending.has(uuid)) return uuid;
      } catch (_) {
        // randomUUID throws outside secure contexts in some engines
      }
    }
    var id;
    do {
      idCounter += 1;
      id = 'pwk-' + idPrefix + '-' + idCounter.toString(36);
    } while (pending.has(id));
    return id;
  }

  /** Whether the host's handshake says `postMessage` takes a message's JSON text. */
  var takesText = false;
  function hostTakesText() {
    if (takesText) return true;
    try {
      var protocol = isObject(adopted) ? adopted.protocol : undefined;
      var capabilities = isObject(protocol) ? protocol.capabilities : undefined;
      // NB: the handshake is frozen and never removed, so a yes is cached; a no is asked again.
      takesText = Array.isArray(capabilities) && capabilities.indexOf('textMessages') >= 0;
    } catch (_) {
      takesText = false;
    }
    return takesText;
  }

  function messageHandler() {
    try {
      var webkit = root.webkit;
      var handlers = webkit && webkit.messageHandlers;
      var handler = handlers && handlers[HANDLER_NAME];
      if (handler && typeof handler.postMessage === 'function') return handler;
    } catch (_) {
      // a hostile getter means: no usable bridge
    }
    return null;
  }

  // ---------------------------------------------------------------- calls

  /** In-flight calls by id. */
  var pending = new Map();
  /** Ids that finished recently, to tell late answers from strangers: a set plus a ring for eviction. */
  var finished = new Set();
  var finishedRing = new Array(FINISHED_MEMORY);
  var finishedNext = 0;

  function rememberFinished(id) {
    var evicted = finishedRing[finishedNext];
    if (evicted !== undefined) finished.delete(evicted);
    finishedRing[finishedNext] = id;
    finishedNext = (finishedNext + 1) % FINISHED_MEMORY;
    finished.add(id);
  }

  function settle(record, ok, value) {
    if (pending.get(record.id) !== record) return false;
    pending.delete(record.id);
    rememberFinished(record.id);
    if (record.timer !== null && typeof root.clearTimeout === 'function') {
      root.clearTimeout(record.timer);
    }
    record.timer = null;
    if (record.signal && record.onAbort) {
      try {
        record.signal.removeEventListener('abort', record.onAbort);
      } catch (_) {
        // nothing to undo
      }
    }
    if (ok) {
      record.resolve(value);
    } else {
      record.reject(value);
    }
    return true;
  }

  function sendCancel(id) {
    var handler = messageHandler();
    if (!handler) return;
    try {
      var ret = handler.postMessage({ id: id, cancel: true });
      if (ret && typeof ret.then === 'function') {
        ret.then(undefined, function (err) {
          diagnose('cancel_failed', 'the native side rejected a cancel message', { id: id, value: err });
        });
      }
    } catch (err) {
      diagnose('cancel_failed', 'posting a cancel message threw', { id: id, value: err });
    }
  }

  function abortError(signal, base) {
    var reason = signal.reason;
    var isTimeout = isObject(reason) && reason.name === 'TimeoutError';
    var opts = {
      code: isTimeout ? 'timeout' : 'cancelled',
      module: base.module,
      action: base.action,
      id: base.id,
      cause: reason
    };
    var text = base.module + '.' + base.action + (isTimeout ? ' timed out (AbortSignal)' : ' was cancelled');
    return new PWAKitError(text, opts);
  }

  function fail(reject, message, code, base, details, cause) {
    reject(new PWAKitError(message, {
      code: code,
      details: details,
      module: base.module,
      action: base.action,
      id: base.id,
      cause: cause
    }));
  }

  function isSignal(value) {
    try {
      return isObject(value) && typeof value.aborted === 'boolean' && typeof value.addEventListener === 'function';
    } catch (_) {
      return false;
    }
  }

  /**
   * Reads a call's options: `{timeout, explicit, signal}`, or `{error, path}` naming
   * the option at fault. `explicit` says whether the page chose the timeout.
   */
  function readOptions(options) {
    if (options === undefined || options === null) {
      return { timeout: config.defaultTimeout, explicit: false, signal: undefined };
    }
    if (!isRecord(options)) {
      return { error: 'options must be an object, got ' + describe(options), path: 'options' };
    }
    var timeout;
    var signal;
    try {
      timeout = options.timeout;
    } catch (_) {
      return { error: 'reading options.timeout threw', path: 'options.timeout' };
    }
    try {
      signal = options.signal;
    } catch (_) {
      return { error: 'reading options.signal threw', path: 'options.signal' };
    }
    var explicit = timeout !== undefined && timeout !== null;
    if (explicit && (typeof timeout !== 'number' || !isFinite(timeout) || timeout <= 0 || timeout > MAX_TIMEOUT_MS)) {
      return {
        error: 'options.timeout must be a number of milliseconds in 1...' + MAX_TIMEOUT_MS + ', got ' + String(timeout),
        path: 'options.timeout'
      };
    }
    if (signal === null) signal = undefined;
    if (signal !== undefined && !isSignal(signal)) {
      return { error: 'options.signal must be an AbortSignal', path: 'options.signal' };
    }
    return { timeout: explicit ? Math.ceil(timeout) : config.defaultTimeout, explicit: explicit, signal: signal };
  }

  function start(module, action, payload, options, resolve, reject) {
    var base = { module: module, action: action, id: undefined };

    if (typeof module !== 'string' || module === '') {
      fail(reject, 'module must be a non-empty string, got ' + describe(module), 'invalid_message', base, { path: 'module' });
      return;
    }
    if (typeof action !== 'string' || action === '') {
      fail(reject, 'action must be a non-empty string, got ' + describe(action), 'invalid_message', base, { path: 'action' });
      return;
    }
    var read = readOptions(options);
    if (read.error) {
      fail(reject, read.error, 'invalid_message', base, { path: read.path });
      return;
    }
    var timeout = { value: read.timeout };
    var signal = read.signal;

    // Serialise first: a payload JSON cannot carry is refused before anything is posted.
    var payloadJSON;
    if (payload !== undefined) {
      try {
        payloadJSON = JSON.stringify(payload);
      } catch (err) {
        fail(reject, 'payload is not JSON-serialisable: ' + (err && err.message ? err.message : String(err)),
          'invalid_payload', base, { path: 'payload' }, err);
        return;
      }
      if (payloadJSON === undefined) {
        fail(reject, 'payload is not JSON-serialisable: ' + describe(payload) + ' has no JSON form',
          'invalid_payload', base, { path: 'payload' });
        return;
      }
    }

    var id = newId();
    base.id = id;
    var json = '{"id":' + JSON.stringify(id) +
      ',"module":' + JSON.stringify(module) +
      ',"action":' + JSON.stringify(action) +
      (payloadJSON === undefined ? '' : ',"payload":' + payloadJSON) +
      ',"timeoutMs":' + timeout.value + '}';

    var limit = config.maxMessageBytes;
    if (json.length > limit || (json.length * 3 > limit && utf8Length(json) > limit)) {
      var size = utf8Length(json);
      fail(reject, 'message is ' + size + ' bytes encoded, over the limit of ' + limit + ' bytes',
        'payload_too_large', base, { path: 'payload', size: size, limit: limit });
      return;
    }

    if (signal && signal.aborted) {
      reject(abortError(signal, base));
      return;
    }

    var handler = messageHandler();
    if (!handler) {
      fail(reject, 'not running in a PWAKit host: the native bridge is not available', 'unavailable', base);
      return;
    }

    // A host that takes JSON text (capability `textMessages`) gets the text already built;
    // any other gets the object the seed protocol posts.
    var message;
    if (hostTakesText()) {
      message = json;
    } else {
      message = { id: id, module: module, action: action };
      if (payloadJSON !== undefined) message.payload = JSON.parse(payloadJSON);
      message.timeoutMs = timeout.value;
    }

    var record = {
      id: id,
      module: module,
      action: action,
      resolve: resolve,
      reject: reject,
      timer: null,
      signal: signal || null,
      onAbort: null
    };
    pending.set(id, record);

    record.timer = root.setTimeout(function () {
      record.timer = null;
      var error = new PWAKitError(module + '.' + action + ' timed out after ' + timeout.value + ' ms', {
        code: 'timeout', details: { timeoutMs: timeout.value }, module: module, action: action, id: id
      });
      if (settle(record, false, error)) sendCancel(id);
    }, timeout.value);

    if (signal) {
      record.onAbort = function () {
        if (settle(record, false, abortError(signal, base))) sendCancel(id);
      };
      signal.addEventListener('abort', record.onAbort);
    }

    var ret;
    try {
      ret = handler.postMessage(message);
    } catch (err) {
      var cloneError = isObject(err) && err.name === 'DataCloneError';
      settle(record, false, new PWAKitError(
        'posting the message failed: ' + (err && err.message ? err.message : String(err)), {
          code: cloneError ? 'invalid_payload' : 'invalid_message',
          details: cloneError ? { path: 'payload' } : undefined,
          module: module, action: action, id: id, cause: err
        }));
      return;
    }
    if (ret && typeof ret.then === 'function') {
      // Fast path: a script message handler with reply answers through the Promise.
      ret.then(function (reply) { acceptReply(record, reply); },
        function (err) { rejectReply(record, err); });
    }
  }

  function acceptReply(record, reply) {
    try {
      if (reply === undefined || reply === null) return; // plain handler: answer comes by script
      var value = reply;
      if (typeof value === 'string') {
        try {
          value = JSON.parse(value);
        } catch (_) {
          diagnose('malformed_reply', 'a Promise reply was a string that is not JSON', { id: record.id, value: reply });
          return;
        }
      }
      if (isRecord(value) && value.id === undefined) {
        var copy = {};
        for (var key in value) {
          if (Object.prototype.hasOwnProperty.call(value, key)) copy[key] = value[key];
        }
        copy.id = record.id;
        value = copy;
      } else if (isRecord(value) && value.id !== record.id) {
        diagnose('mismatched_reply', 'a Promise reply carried another call\'s id', { id: record.id, value: reply });
        return;
      }
      route(value);
    } catch (err) {
      diagnose('internal_error', 'reading a Promise reply failed', { id: record.id, value: err });
    }
  }

  function rejectReply(record, err) {
    var code = isObject(err) && typeof err.code === 'string' && err.code !== '' ? err.code : 'module_error';
    var text = isObject(err) && typeof err.message === 'string' ? err.message : String(err);
    settle(record, false, new PWAKitError('the native reply failed: ' + text, {
      code: code, module: record.module, action: record.action, id: record.id, cause: err
    }));
  }

  function errorFrom(response, record) {
    var text = response.error;
    var code = response.code;
    var details = response.details;
    return new PWAKitError(typeof text === 'string' && text !== '' ? text : record.module + '.' + record.action + ' failed', {
      code: typeof code === 'string' && code !== '' ? code : 'module_error',
      details: isRecord(details) ? details : undefined,
      module: record.module,
      action: record.action,
      id: record.id
    });
  }

  function parseIncoming(raw, what) {
    if (typeof raw !== 'string') return { value: raw };
    try {
      return { value: JSON.parse(raw) };
    } catch (_) {
      return { error: what + ' is a string that is not JSON' };
    }
  }

  /** Routes one response; true when it settled a call of ours or was handed on. */
  function route(raw) {
    var parsed = parseIncoming(raw, 'response');
    if (parsed.error) {
      diagnose('malformed_response', parsed.error, { value: raw });
      return false;
    }
    var response = parsed.value;
    if (!isRecord(response)) {
      diagnose('malformed_response', 'response must be an object, got ' + describe(response), { value: raw });
      return false;
    }
    var id = response.id;
    var record = typeof id === 'string' ? pending.get(id) : undefined;
    if (!record) {
      if (typeof id === 'string' && finished.has(id)) {
        diagnose('late_response', 'response for a call that already finished', { id: id, value: raw });
        return false;
      }
      if (delegates.response) return handOn(delegates.response, raw, 'response');
      if (typeof id !== 'string' || id === '') {
        diagnose('malformed_response', 'response.id must be a non-empty string, got ' + describe(id), { value: raw });
      } else {
        diagnose('unknown_id', 'response for an id this page never sent', { id: id, value: raw });
      }
      return false;
    }
    var success = response.success;
    if (success === true) return settle(record, true, response.data);
    if (success === false) return settle(record, false, errorFrom(response, record));
    diagnose('malformed_response', 'response.success must be a boolean, got ' + describe(success), { id: id, value: raw });
    return settle(record, false, new PWAKitError(
      'malformed response from the native side: success must be a boolean, got ' + describe(success), {
        code: 'invalid_message', details: { path: 'success' },
        module: record.module, action: record.action, id: id
      }));
  }

  function handOn(fn, raw, what) {
    try {
      fn.call(adopted, raw);
    } catch (err) {
      diagnose('delegate_error', 'the page\'s own ' + what + ' handler threw', { value: err });
    }
    return true;
  }

  function handleResponse(raw) {
    try {
      return route(raw);
    } catch (err) {
      diagnose('internal_error', 'handling a response failed', { value: err });
      return false;
    }
  }

  // ---------------------------------------------------------------- events

  /** Listeners by event type: arrays of {fn, once}. */
  var listeners = new Map();

  function checkListener(method, type, fn) {
    if (typeof type !== 'string' || type === '') {
      throw new TypeError('PWAKit.' + method + ': type must be a non-empty string');
    }
    if (typeof fn !== 'function') {
      throw new TypeError('PWAKit.' + method + ': listener must be a function');
    }
  }

  function addListener(type, fn, once) {
    var list = listeners.get(type);
    if (!list) {
      list = [];
      listeners.set(type, list);
    }
    for (var i = 0; i < list.length; i++) {
      if (list[i].fn === fn) return function () { off(type, fn); };
    }
    var entry = { fn: fn, once: once };
    list.push(entry);
    return function () { removeEntry(type, entry); };
  }

  function removeEntry(type, entry) {
    var list = listeners.get(type);
    if (!list) return;
    var index = list.indexOf(entry);
    if (index >= 0) list.splice(index, 1);
    if (list.length === 0) listeners.delete(type);
  }

  function on(type, fn) {
    checkListener('on', type, fn);
    return addListener(type, fn, false);
  }

  function once(type, fn) {
    checkListener('once', type, fn);
    return addListener(type, fn, true);
  }

  function off(type, fn) {
    checkListener('off', type, fn);
    var list = listeners.get(type);
    if (!list) return false;
    for (var i = 0; i < list.length; i++) {
      if (list[i].fn === fn) {
        removeEntry(type, list[i]);
        return true;
      }
    }
    return false;
  }

  function deliver(type, data) {
    var list = listeners.get(type);
    if (!list) return;
    var snapshot = list.slice();
    for (var i = 0; i < snapshot.length; i++) {
      var entry = snapshot[i];
      if (list.indexOf(entry) < 0) continue; // removed by an earlier listener
      if (entry.once) removeEntry(type, entry);
      try {
        entry.fn.call(undefined, data);
      } catch (err) {
        reportListenerError(err);
      }
    }
  }

  function dispatchDOM(type, data) {
    var Custom = root.CustomEvent;
    if (typeof root.dispatchEvent !== 'function' || typeof Custom !== 'function') return;
    root.dispatchEvent(new Custom('pwa:' + type, { detail: data }));
  }

  function handleEvent(raw) {
    try {
      var parsed = parseIncoming(raw, 'event');
      if (parsed.error) {
        diagnose('malformed_event', parsed.error, { value: raw });
        return false;
      }
      var event = parsed.value;
      if (!isRecord(event)) {
        diagnose('malformed_event', 'event must be an object, got ' + describe(event), { value: raw });
        return false;
      }
      var type = event.type;
      if (typeof type !== 'string' || type === '') {
        diagnose('malformed_event', 'event.type must be a non-empty string, got ' + describe(type), { value: raw });
        return false;
      }
      var data = event.data;
      deliver(type, data);
      if (delegates.event) {
        // NB: a page-installed handler (a seed-era bridge script) dispatches the
        // DOM event itself; dispatching here too would deliver it twice.
        handOn(delegates.event, raw, 'event');
      } else {
        dispatchDOM(type, data);
      }
      return true;
    } catch (err) {
      diagnose('internal_error', 'handling an event failed', { value: err });
      return false;
    }
  }

  // ------------------------------------------------------- window.pwakit

  /** The object `window.pwakit` currently is; its handlers route to this instance. */
  var adopted = null;
  /** Handlers a page installed on `window.pwakit` itself; they get what is not ours. */
  var delegates = { response: null, event: null };

  function routedAccessor(obj, name, ours, slot) {
    var current;
    try {
      current = obj[name];
    } catch (_) {
      current = undefined;
    }
    if (current === ours) return; // already routed; keep any delegate
    if (typeof current === 'function') delegates[slot] = current;
    var descriptor = {
      configurable: true,
      enumerable: true,
      get: function () { return ours; },
      set: function (fn) {
        if (adopted !== obj) return;
        delegates[slot] = typeof fn === 'function' && fn !== ours ? fn : null;
      }
    };
    try {
      Object.defineProperty(obj, name, descriptor);
    } catch (_) {
      try {
        obj[name] = ours;
      } catch (err) {
        diagnose('install_failed', 'window.pwakit.' + name + ' cannot be set', { value: err });
      }
    }
  }

  function adopt(obj) {
    var previous = adopted;
    var changed = obj !== previous;
    adopted = obj;
    if (changed) {
      delegates.response = null;
      delegates.event = null;
    }
    if (!isObject(obj)) return;
    routedAccessor(obj, '_handleResponse', handleResponse, 'response');
    routedAccessor(obj, '_handleEvent', handleEvent, 'event');
    if (changed && isObject(previous) && previous.protocol !== undefined && obj.protocol === undefined) {
      try {
        obj.protocol = previous.protocol;
      } catch (_) {
        // a sealed replacement keeps what it has
      }
    }
  }

  /** Makes `window.pwakit` an object whose handlers route here; safe to repeat. */
  function install() {
    var descriptor = Object.getOwnPropertyDescriptor(root, 'pwakit');
    var current;
    try {
      current = root.pwakit;
    } catch (_) {
      current = undefined;
    }
    if (!descriptor || descriptor.configurable) {
      if (!isObject(current)) current = {};
      if (!descriptor || descriptor.get !== windowGetter) {
        // NB: an accessor, so that a page replacing window.pwakit wholesale
        // (as some seed-era scripts do) keeps responses flowing to this SDK.
        Object.defineProperty(root, 'pwakit', {
          configurable: true,
          enumerable: true,
          get: windowGetter,
          set: windowSetter
        });
      }
      adopt(current);
      return;
    }
    if (!isObject(current)) {
      try {
        root.pwakit = {};
        current = root.pwakit;
      } catch (_) {
        // fixed and not an object: nothing to route
      }
    }
    if (isObject(current)) {
      adopt(current);
    } else {
      diagnose('install_failed', 'window.pwakit is fixed to ' + describe(current) + ' and cannot be routed', {});
    }
  }

  function windowGetter() {
    return adopted;
  }

  function windowSetter(value) {
    adopt(value);
  }

  // --------------------------------------------------------------- modules

  // NB: names the language or common libraries probe on any object (`await` reads
  // `then`, JSON.stringify `toJSON`, string conversion `toString`/`valueOf`, …). On
  // the proxies they keep their ordinary meaning instead of naming a module or action.
  var ORDINARY_NAMES = new Set([
    'then', 'toJSON', 'constructor', '__proto__', 'toString', 'toLocaleString', 'valueOf',
    'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
    '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__'
  ]);
  /** The longest module or action name the host accepts (UTF-8 bytes). */
  var MAX_NAME_BYTES = 128;
  /** How many module proxies, and actions per module, are kept for reuse. */
  var PROXY_CACHE_LIMIT = 256;

  /** Whether `key` may name a module or action on the proxies. */
  function isCallableName(key) {
    return typeof key === 'string' && key !== '' && !ORDINARY_NAMES.has(key) &&
      key.length <= MAX_NAME_BYTES && utf8Length(key) <= MAX_NAME_BYTES;
  }

  function refuse() {
    return false;
  }

  /**
   * A read-only proxy over an empty object: callable names come from `lookup`; every
   * other key (symbols, ordinary names) behaves as on the empty object itself.
   */
  function namespace(tag, lookup) {
    var target = {};
    Object.defineProperty(target, typeof Symbol === 'function' ? Symbol.toStringTag : '@@toStringTag', { value: tag });
    var cache = new Map();
    return new Proxy(target, {
      get: function (object, key, receiver) {
        if (!isCallableName(key)) return Reflect.get(object, key, receiver);
        var value = cache.get(key);
        if (value === undefined) {
          value = lookup(key);
          if (cache.size < PROXY_CACHE_LIMIT) cache.set(key, value);
        }
        return value;
      },
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
      preventExtensions: refuse
    });
  }

  function actionFunction(module, action) {
    var fn = function (payload, options) {
      return call(module, action, payload, options);
    };
    try {
      Object.defineProperty(fn, 'name', { value: module + '.' + action });
    } catch (_) {
      // an engine with a fixed name keeps the anonymous one
    }
    return fn;
  }

  /** `PWAKit.modules.<module>.<action>(payload, options)` is `PWAKit.call(module, action, payload, options)`. */
  var modules = namespace('PWAKit.modules', function (module) {
    return namespace('PWAKit.modules.' + module, function (action) {
      return actionFunction(module, action);
    });
  });

  // ------------------------------------------------- Web API counterparts

  // Each function here has a Web API's shape. Inside a host it calls the native module,
  // whose answer is final (a module the app turned off answers `unavailable`; the
  // function does not go around the app's configuration); outside one it uses the Web
  // API when the browser has it, and otherwise rejects with `unavailable`.

  /** Default timeout of a native call that waits for the user (a share sheet, a prompt). */
  var INTERACTIVE_TIMEOUT_MS = 600000;

  /** Web API errors (DOMException names) by the code they become. */
  var WEB_ERROR_CODES = new Map([
    ['AbortError', 'cancelled'],
    ['NotAllowedError', 'permission_denied'],
    ['SecurityError', 'permission_denied'],
    ['NotSupportedError', 'unavailable'],
    ['NotFoundError', 'unavailable'],
    ['TypeError', 'invalid_payload'],
    ['DataError', 'invalid_payload']
  ]);

  function opError(op, code, message, details, cause) {
    return new PWAKitError(message, {
      code: code, details: details, module: op.module, action: op.action, cause: cause
    });
  }

  function invalidInput(op, path, message, extra, cause) {
    var details = { path: path };
    if (extra) {
      for (var key in extra) {
        if (Object.prototype.hasOwnProperty.call(extra, key)) details[key] = extra[key];
      }
    }
    return opError(op, 'invalid_payload', message, details, cause);
  }

  function unavailable(op) {
    return opError(op, 'unavailable', 'not running in a PWAKit host, and this browser has no ' + op.web);
  }

  function errorName(err) {
    try {
      return isObject(err) && typeof err.name === 'string' ? err.name : '';
    } catch (_) {
      return '';
    }
  }

  function errorText(err) {
    try {
      return isObject(err) && typeof err.message === 'string' ? err.message : String(err);
    } catch (_) {
      return 'an unprintable error';
    }
  }

  /** A value for a message: numbers as written, anything else by its kind. */
  function show(value) {
    return typeof value === 'number' ? String(value) : describe(value);
  }

  /** Reads `object[key]`; a getter that throws becomes `invalid_payload` at `path`. */
  function readField(op, object, key, path, extra) {
    try {
      return object[key];
    } catch (err) {
      throw invalidInput(op, path, 'reading ' + path + ' threw: ' + errorText(err), extra, err);
    }
  }

  /** `navigator.<owner…>.<name>` bound to its owner, or null when the browser has none. */
  function webMethod(owners, name) {
    try {
      var owner = root.navigator;
      for (var i = 0; i < owners.length && isObject(owner); i++) owner = owner[owners[i]];
      var fn = isObject(owner) ? owner[name] : undefined;
      if (typeof fn === 'function') {
        return function () { return fn.apply(owner, arguments); };
      }
    } catch (_) {
      // a hostile getter means: no usable Web API
    }
    return null;
  }

  function webFailure(op, err) {
    if (err instanceof PWAKitError) return err;
    var code = WEB_ERROR_CODES.get(errorName(err)) || 'module_error';
    return opError(op, code, op.web + ' failed: ' + errorText(err),
      code === 'invalid_payload' ? { path: 'payload' } : undefined, err);
  }

  /**
   * Runs a Web API counterpart: reads its options, then `body(options)`, whose value
   * or thrown error settles the Promise. NB: it runs synchronously up to its first wait, so a Web API
   * that needs the user's activation (share, clipboard) is still called within it.
   */
  function perform(op, options, body) {
    return new Promise(function (resolve, reject) {
      var read = readOptions(options);
      if (read.error) {
        reject(opError(op, 'invalid_message', read.error, { path: read.path }));
        return;
      }
      if (read.signal && read.signal.aborted) {
        reject(abortError(read.signal, op));
        return;
      }
      resolve(body(read));
    });
  }

  /** Calls `op`'s native action; a call that waits for the user gets a longer default timeout. */
  function callNative(op, payload, read, interactive) {
    var timeout = read.explicit ? read.timeout
      : interactive ? Math.max(config.defaultTimeout, INTERACTIVE_TIMEOUT_MS) : config.defaultTimeout;
    return call(op.module, op.action, payload, { timeout: timeout, signal: read.signal });
  }

  /**
   * Waits for a Web API: the signal ends the wait with `cancelled` (the Web API itself
   * cannot be stopped), a timeout the page chose ends it with `timeout`, and failures
   * become PWAKitErrors.
   */
  function callWeb(op, read, run) {
    return new Promise(function (resolve, reject) {
      var signal = read.signal;
      if (signal && signal.aborted) {
        reject(abortError(signal, op));
        return;
      }
      var timer = null;
      var onAbort = null;
      var done = false;
      var finish = function (ok, value) {
        if (done) return;
        done = true;
        if (timer !== null && typeof root.clearTimeout === 'function') root.clearTimeout(timer);
        if (onAbort) {
          try {
            signal.removeEventListener('abort', onAbort);
          } catch (_) {
            // nothing to undo
          }
        }
        if (ok) resolve(value);
        else reject(value);
      };
      if (read.explicit && typeof root.setTimeout === 'function') {
        timer = root.setTimeout(function () {
          timer = null;
          finish(false, opError(op, 'timeout', op.web + ' did not answer within ' + read.timeout + ' ms',
            { timeoutMs: read.timeout }));
        }, read.timeout);
      }
      if (signal) {
        onAbort = function () { finish(false, abortError(signal, op)); };
        signal.addEventListener('abort', onAbort);
      }
      var waiting;
      try {
        waiting = Promise.resolve(run());
      } catch (err) {
        waiting = Promise.reject(err);
      }
      waiting.then(function (value) { finish(true, value); },
        function (err) { finish(false, webFailure(op, err)); });
    });
  }

  function malformedAnswer(op, path, value) {
    return opError(op, 'invalid_message', 'malformed answer from ' + op.module + '.' + op.action +
      ': ' + path + ' is ' + show(value), { path: path });
  }

  /** `data[field]` of a native answer, when `data` is an object and `accept` takes it; otherwise `invalid_message`. */
  function answerField(op, data, field, accept) {
    if (!isRecord(data)) throw malformedAnswer(op, 'data', data);
    var value = data[field];
    if (!accept(value)) throw malformedAnswer(op, 'data.' + field, value);
    return value;
  }

  function isBoolean(value) {
    return typeof value === 'boolean';
  }

  function nothing() {
    return undefined;
  }

  // ------------------------------------------------------------- vibration

  /** Durations past this many are dropped, as browsers drop them. */
  var MAX_VIBRATION_ENTRIES = 100;
  /** Longer vibrations and pauses are shortened to this many ms, as browsers do. */
  var MAX_VIBRATION_MS = 10000;

  var VIBRATE = { module: 'vibration', action: 'vibrate', web: 'navigator.vibrate' };

  function vibrationDuration(value, index) {
    if (typeof value !== 'number' || !isFinite(value) || value < 0) {
      var what = index === undefined ? 'pattern' : 'pattern[' + index + ']';
      throw invalidInput(VIBRATE, 'payload.pattern', what + ' must be a non-negative finite number of ms, got ' + show(value),
        index === undefined ? undefined : { index: index });
    }
    return Math.min(Math.floor(value), MAX_VIBRATION_MS);
  }

  /** The pattern as the Vibration API reads it: `n` is `[n]`, integers, capped in count and length. */
  function readPattern(pattern) {
    if (typeof pattern === 'number') return [vibrationDuration(pattern)];
    if (!isArray(pattern)) {
      throw invalidInput(VIBRATE, 'payload.pattern', 'pattern must be a number or an array of numbers, got ' + describe(pattern));
    }
    var length = readField(VIBRATE, pattern, 'length', 'payload.pattern');
    if (typeof length !== 'number' || !(length >= 0)) {
      throw invalidInput(VIBRATE, 'payload.pattern', 'pattern.length must be a number, got ' + show(length));
    }
    var count = Math.min(length, MAX_VIBRATION_ENTRIES);
    var list = [];
    for (var i = 0; i < count; i++) {
      list.push(vibrationDuration(readField(VIBRATE, pattern, i, 'payload.pattern', { index: i }), i));
    }
    return list;
  }

  /** Vibrates with `pattern` (ms, alternating on and off); `0` or `[]` stops. Resolves whether it did. */
  function vibrate(pattern, options) {
    return perform(VIBRATE, options, function (read) {
      var list = readPattern(pattern);
      if (messageHandler()) {
        return callNative(VIBRATE, { pattern: list }, read, false).then(function (data) {
          return answerField(VIBRATE, data, 'vibrated', isBoolean);
        });
      }
      var web = webMethod([], 'vibrate');
      if (!web) throw unavailable(VIBRATE);
      return callWeb(VIBRATE, read, function () { return web(list) === true; });
    });
  }

  // ----------------------------------------------------------------- share

  var SHARE = { module: 'share', action: 'share', web: 'navigator.share' };
  var CAN_SHARE = { module: 'share', action: 'canShare', web: 'navigator.canShare' };
  var SHARE_TEXT_FIELDS = ['title', 'text', 'url'];
  /** URL schemes Web Share refuses: the local ones and `file`. */
  var UNSHAREABLE_SCHEMES = new Set(['about:', 'blob:', 'data:', 'file:']);
  /** Native answers that mean "this cannot be shared" to canShare, rather than a failed question. */
  var CANNOT_SHARE_CODES = new Set([
    'invalid_payload', 'payload_too_large', 'unavailable', 'unknown_module', 'unknown_action',
    'permission_denied', 'origin_not_allowed'
  ]);
  var BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  var arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;

  /** The bytes of `buffer` when it is a real ArrayBuffer (of any realm), else null. */
  function bytesOf(buffer) {
    try {
      arrayBufferLength.call(buffer);
      return new Uint8Array(buffer);
    } catch (_) {
      return null;
    }
  }

  function base64(bytes) {
    var out = '';
    var n = bytes.length;
    var i = 0;
    for (; i + 2 < n; i += 3) {
      var v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      out += BASE64_DIGITS[v >> 18] + BASE64_DIGITS[(v >> 12) & 63] + BASE64_DIGITS[(v >> 6) & 63] + BASE64_DIGITS[v & 63];
    }
    if (i < n) {
      var rest = (bytes[i] << 16) | (i + 1 < n ? bytes[i + 1] << 8 : 0);
      out += BASE64_DIGITS[rest >> 18] + BASE64_DIGITS[(rest >> 12) & 63] +
        (i + 1 < n ? BASE64_DIGITS[(rest >> 6) & 63] : '=') + '=';
    }
    return out;
  }

  /**
   * A Blob's type as a bare media type: parameters (`; charset=…`) dropped, and
   * `application/octet-stream` for anything that is not `type/subtype`.
   */
  function mediaType(type) {
    var bare = type.split(';')[0].trim();
    var parts = bare.split('/');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '' || /\s/.test(bare) || bare.length > 255) {
      return 'application/octet-stream';
    }
    return bare;
  }

  function base64Length(size) {
    return 4 * Math.ceil(size / 3);
  }

  /** `value` resolved against the page's address, when the page can parse URLs. */
  function shareURL(op, value) {
    var URLClass = root.URL;
    if (typeof URLClass !== 'function') return value;
    var base;
    try {
      base = root.location ? root.location.href : undefined;
    } catch (_) {
      base = undefined;
    }
    var url;
    try {
      url = typeof base === 'string' ? new URLClass(value, base) : new URLClass(value);
    } catch (err) {
      throw invalidInput(op, 'payload.url', 'payload.url is not a valid URL: ' + errorText(err), undefined, err);
    }
    if (UNSHAREABLE_SCHEMES.has(url.protocol)) {
      throw invalidInput(op, 'payload.url', 'payload.url cannot be shared: a ' + url.protocol + ' URL');
    }
    return url.href;
  }

  function readShareFile(op, item, index) {
    var at = { index: index };
    if (!isObject(item)) {
      throw invalidInput(op, 'payload.files', 'files[' + index + '] must be a File or Blob, got ' + describe(item), at);
    }
    var read = readField(op, item, 'arrayBuffer', 'payload.files', at);
    var size = readField(op, item, 'size', 'payload.files', at);
    var type = readField(op, item, 'type', 'payload.files', at);
    var name = readField(op, item, 'name', 'payload.files', at);
    if (typeof read !== 'function' || typeof size !== 'number' || !isFinite(size) || size < 0 ||
        (type !== undefined && typeof type !== 'string') || (name !== undefined && typeof name !== 'string')) {
      throw invalidInput(op, 'payload.files', 'files[' + index + '] must be a File or Blob', at);
    }
    return {
      blob: item,
      read: read,
      size: size,
      type: type || '',
      name: name || '',
      fallbackName: 'file-' + (index + 1)
    };
  }

  /** Reads share data once, checking every field: `{title?, text?, url?, files}`. */
  function readShareData(op, data) {
    if (!isRecord(data)) {
      throw invalidInput(op, 'payload', 'share data must be an object, got ' + describe(data));
    }
    var out = { files: [] };
    var present = false;
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var key = SHARE_TEXT_FIELDS[i];
      var value = readField(op, data, key, 'payload.' + key);
      if (value === undefined) continue;
      if (typeof value !== 'string') {
        throw invalidInput(op, 'payload.' + key, 'payload.' + key + ' must be a string, got ' + describe(value));
      }
      out[key] = key === 'url' ? shareURL(op, value) : value;
      present = true;
    }
    var files = readField(op, data, 'files', 'payload.files');
    if (files !== undefined) {
      if (!isArray(files)) {
        throw invalidInput(op, 'payload.files', 'payload.files must be an array of File or Blob, got ' + describe(files));
      }
      var count = readField(op, files, 'length', 'payload.files');
      if (typeof count !== 'number' || !(count >= 0)) {
        throw invalidInput(op, 'payload.files', 'payload.files.length must be a number, got ' + show(count));
      }
      for (var j = 0; j < count; j++) {
        out.files.push(readShareFile(op, readField(op, files, j, 'payload.files', { index: j }), j));
      }
    }
    if (!present && out.files.length === 0) {
      throw invalidInput(op, 'payload', 'share data needs at least one of title, text, url or files');
    }
    return out;
  }

  /**
   * A lower bound of the encoded message's size with these files at these sizes; over
   * the limit, the message certainly is.
   */
  function shareEstimate(data, sizes) {
    var total = 0;
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var value = data[SHARE_TEXT_FIELDS[i]];
      if (value !== undefined) total += utf8Length(value);
    }
    for (var j = 0; j < data.files.length; j++) {
      var file = data.files[j];
      // NB: 31 is the JSON around one file: {"name":"","type":"","data":""},
      total += base64Length(sizes[j]) + utf8Length(file.name || file.fallbackName) + utf8Length(mediaType(file.type)) + 31;
    }
    return total;
  }

  function checkShareSize(op, data, sizes) {
    var estimate = shareEstimate(data, sizes);
    var limit = config.maxMessageBytes;
    if (estimate > limit) {
      throw opError(op, 'payload_too_large', 'the files need at least ' + estimate +
        ' bytes encoded, over the message limit of ' + limit + ' bytes', { path: 'payload.files', size: estimate, limit: limit });
    }
  }

  /** The native payload: the text fields, and each file read and base64-encoded as `{name, type, data}`. */
  async function nativeSharePayload(op, data, signal) {
    var payload = {};
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var key = SHARE_TEXT_FIELDS[i];
      if (data[key] !== undefined) payload[key] = data[key];
    }
    if (data.files.length === 0) return payload;
    // Refuse before reading anything when the declared sizes cannot fit; then again
    // with the real sizes, which a Blob-like object may have understated.
    var sizes = data.files.map(function (file) { return file.size; });
    checkShareSize(op, data, sizes);
    var encoded = [];
    for (var j = 0; j < data.files.length; j++) {
      var file = data.files[j];
      var at = { index: j };
      var buffer;
      try {
        buffer = await file.read.call(file.blob);
      } catch (err) {
        throw invalidInput(op, 'payload.files', 'reading files[' + j + '] failed: ' + errorText(err), at, err);
      }
      if (signal && signal.aborted) throw abortError(signal, op);
      var bytes = bytesOf(buffer);
      if (bytes === null) {
        throw invalidInput(op, 'payload.files', 'files[' + j + '].arrayBuffer() did not give an ArrayBuffer', at);
      }
      sizes[j] = bytes.length;
      checkShareSize(op, data, sizes);
      encoded.push({
        name: file.name || file.fallbackName,
        type: mediaType(file.type),
        data: base64(bytes)
      });
    }
    payload.files = encoded;
    return payload;
  }

  /** Share data for the Web API: a Blob without a name becomes a File, where the browser can make one. */
  function webShareData(op, data) {
    var out = {};
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var key = SHARE_TEXT_FIELDS[i];
      if (data[key] !== undefined) out[key] = data[key];
    }
    if (data.files.length === 0) return out;
    var FileClass = root.File;
    out.files = data.files.map(function (file, index) {
      if (file.name !== '') return file.blob;
      if (typeof FileClass !== 'function') {
        throw invalidInput(op, 'payload.files', 'files[' + index + '] is a Blob and this browser cannot make it a File',
          { index: index });
      }
      try {
        return new FileClass([file.blob], file.fallbackName, { type: file.type });
      } catch (err) {
        throw invalidInput(op, 'payload.files', 'files[' + index + '] cannot be made a File: ' + errorText(err),
          { index: index }, err);
      }
    });
    return out;
  }

  /** Opens the share sheet with `data`; resolves `{shared}`, `false` when the user dismissed it. */
  function share(data, options) {
    return perform(SHARE, options, function (read) {
      var parsed = readShareData(SHARE, data);
      if (messageHandler()) {
        return nativeSharePayload(SHARE, parsed, read.signal).then(function (payload) {
          return callNative(SHARE, payload, read, true);
        }).then(function (answer) {
          return { shared: answerField(SHARE, answer, 'shared', isBoolean) };
        });
      }
      var web = webMethod([], 'share');
      if (!web) throw unavailable(SHARE);
      var webData = webShareData(SHARE, parsed);
      return callWeb(SHARE, read, function () {
        return new Promise(function (resolve) { resolve(web(webData)); }).then(function () {
          return { shared: true };
        }, function (err) {
          if (errorName(err) === 'AbortError') return { shared: false };
          throw err;
        });
      });
    });
  }

  function cannotShare(err) {
    if (err instanceof PWAKitError && CANNOT_SHARE_CODES.has(err.code)) return false;
    throw err;
  }

  /**
   * Whether `share(data)` could share this data. It resolves `false` rather than
   * rejecting when the data is invalid or sharing is not possible at all.
   */
  function canShare(data, options) {
    return perform(CAN_SHARE, options, function (read) {
      var parsed;
      try {
        parsed = readShareData(CAN_SHARE, data);
      } catch (err) {
        return cannotShare(err);
      }
      if (messageHandler()) {
        return nativeSharePayload(CAN_SHARE, parsed, read.signal).then(function (payload) {
          return callNative(CAN_SHARE, payload, read, false);
        }).then(function (answer) {
          return answerField(CAN_SHARE, answer, 'canShare', isBoolean);
        }, cannotShare);
      }
      var webShare = webMethod([], 'share');
      if (!webShare) return false;
      var webData;
      try {
        webData = webShareData(CAN_SHARE, parsed);
      } catch (err) {
        return cannotShare(err);
      }
      var webCanShare = webMethod([], 'canShare');
      return callWeb(CAN_SHARE, read, function () {
        // NB: a browser with share but without canShare (Safari before 14) shares no files.
        if (!webCanShare) return parsed.files.length === 0;
        try {
          return webCanShare(webData) === true;
        } catch (_) {
          return false;
        }
      });
    });
  }

  // ------------------------------------------------------------- clipboard

  var CLIPBOARD_WRITE = { module: 'clipboard', action: 'write', web: 'navigator.clipboard.writeText' };
  var CLIPBOARD_READ = { module: 'clipboard', action: 'read', web: 'navigator.clipboard.readText' };

  function isTextOrNone(value) {
    return typeof value === 'string' || value === null || value === undefined;
  }

  /** Puts `text` on the clipboard. */
  function writeText(text, options) {
    return perform(CLIPBOARD_WRITE, options, function (read) {
      if (typeof text !== 'string') {
        throw invalidInput(CLIPBOARD_WRITE, 'payload.text', 'text must be a string, got ' + describe(text));
      }
      if (messageHandler()) {
        return callNative(CLIPBOARD_WRITE, { text: text }, read, false).then(nothing);
      }
      var web = webMethod(['clipboard'], 'writeText');
      if (!web) throw unavailable(CLIPBOARD_WRITE);
      return callWeb(CLIPBOARD_WRITE, read, function () {
        return Promise.resolve(web(text)).then(nothing);
      });
    });
  }

  /** The clipboard's text; `''` when it holds none (as the Clipboard API answers). */
  function readText(options) {
    return perform(CLIPBOARD_READ, options, function (read) {
      if (messageHandler()) {
        // NB: interactive: reading another app's text may ask the user first (iOS 16+).
        return callNative(CLIPBOARD_READ, undefined, read, true).then(function (data) {
          // NB: a host leaves `text` out (or sends null) when the clipboard holds no text.
          var text = answerField(CLIPBOARD_READ, data, 'text', isTextOrNone);
          return typeof text === 'string' ? text : '';
        });
      }
      var web = webMethod(['clipboard'], 'readText');
      if (!web) throw unavailable(CLIPBOARD_READ);
      return callWeb(CLIPBOARD_READ, read, function () {
        return Promise.resolve(web()).then(function (text) { return typeof text === 'string' ? text : ''; });
      });
    });
  }

  var clipboard = Object.freeze({ writeText: writeText, readText: readText });

  // -------------------------------------------------------------- badging

  var BADGE_SET = { module: 'badging', action: 'set', web: 'navigator.setAppBadge' };
  var BADGE_CLEAR = { module: 'badging', action: 'clear', web: 'navigator.clearAppBadge' };

  /**
   * Shows `count` on the app's icon; `0` clears it. Without a count the Badging API
   * shows a plain mark; a host, which shows numbers only, shows 1.
   */
  function setAppBadge(count, options) {
    return perform(BADGE_SET, options, function (read) {
      if (count !== undefined &&
          (typeof count !== 'number' || !isFinite(count) || count < 0 || count > Number.MAX_SAFE_INTEGER)) {
        throw invalidInput(BADGE_SET, 'payload.count',
          'count must be a whole number from 0 to ' + Number.MAX_SAFE_INTEGER + ', got ' + show(count));
      }
      var whole = count === undefined ? undefined : Math.floor(count);
      if (messageHandler()) {
        return callNative(BADGE_SET, { count: whole === undefined ? 1 : whole }, read, false).then(nothing);
      }
      var web = webMethod([], 'setAppBadge');
      if (!web) throw unavailable(BADGE_SET);
      return callWeb(BADGE_SET, read, function () {
        return Promise.resolve(whole === undefined ? web() : web(whole)).then(nothing);
      });
    });
  }

  /** Removes the app icon's badge. */
  function clearAppBadge(options) {
    return perform(BADGE_CLEAR, options, function (read) {
      if (messageHandler()) return callNative(BADGE_CLEAR, undefined, read, false).then(nothing);
      var web = webMethod([], 'clearAppBadge');
      if (!web) throw unavailable(BADGE_CLEAR);
      return callWeb(BADGE_CLEAR, read, function () { return Promise.resolve(web()).then(nothing); });
    });
  }

  // ---------------------------------------------------------- permissions

  /** Permission names pages may use: the native module that answers, and the Web name. */
  var PERMISSIONS = new Map([
    ['camera', { module: 'camera', web: 'camera' }],
    ['microphone', { module: 'microphone', web: 'microphone' }],
    ['geolocation', { module: 'location', web: 'geolocation' }],
    ['location', { module: 'location', web: 'geolocation' }]
  ]);
  /** Native states in Web terms; `restricted` (a policy the user cannot change) is a kind of `denied`. */
  var NATIVE_STATES = new Map([
    ['granted', { state: 'granted', restricted: false }],
    ['denied', { state: 'denied', restricted: false }],
    ['notDetermined', { state: 'prompt', restricted: false }],
    ['restricted', { state: 'denied', restricted: true }]
  ]);
  var WEB_STATES = new Set(['granted', 'denied', 'prompt']);
  var PERMISSION_DENIED_CODE = 1; // GeolocationPositionError.PERMISSION_DENIED
  var WEB_QUERY = 'navigator.permissions.query';

  function isNativeState(value) {
    return NATIVE_STATES.has(value);
  }

  function permissionStatus(name, state, restricted) {
    return { name: name, state: state, restricted: restricted };
  }

  /** The permission a descriptor names: `{name, op}` with `op` the native action `action`. */
  function readPermission(descriptor, action, web) {
    var unknown = { module: undefined, action: undefined, web: web };
    if (!isRecord(descriptor)) {
      throw invalidInput(unknown, 'descriptor', 'descriptor must be an object like { name: "camera" }, got ' + describe(descriptor));
    }
    var name = readField(unknown, descriptor, 'name', 'descriptor.name');
    var entry = typeof name === 'string' ? PERMISSIONS.get(name) : undefined;
    if (!entry) {
      throw invalidInput(unknown, 'descriptor.name', 'descriptor.name must be camera, microphone, geolocation or location; got ' +
        (typeof name === 'string' ? JSON.stringify(name.length > 64 ? name.slice(0, 64) + '…' : name) : describe(name)));
    }
    return { name: entry.web, op: { module: entry.module, action: action, web: web } };
  }

  function nativePermission(permission, read, interactive) {
    return callNative(permission.op, undefined, read, interactive).then(function (data) {
      var mapped = NATIVE_STATES.get(answerField(permission.op, data, 'state', isNativeState));
      return permissionStatus(permission.name, mapped.state, mapped.restricted);
    });
  }

  /** The Web state of a permission through navigator.permissions.query. */
  function webPermissionState(op, name, webQuery) {
    return Promise.resolve(webQuery({ name: name })).then(function (status) {
      var state;
      try {
        state = isObject(status) ? status.state : undefined;
      } catch (_) {
        state = undefined;
      }
      if (!WEB_STATES.has(state)) {
        throw opError(op, 'module_error', WEB_QUERY + ' answered the state ' + show(state));
      }
      return state;
    }, function (err) {
      // NB: a browser that does not know the name (camera in Firefox) throws a TypeError.
      if (errorName(err) === 'TypeError') {
        throw opError(op, 'unavailable', 'this browser cannot query the ' + name + ' permission: ' + errorText(err), undefined, err);
      }
      throw err;
    });
  }

  /** The state of a permission, without asking the user. */
  function queryPermission(descriptor, options) {
    var permission;
    try {
      permission = readPermission(descriptor, 'check', WEB_QUERY);
    } catch (err) {
      return Promise.reject(err);
    }
    return perform(permission.op, options, function (read) {
      if (messageHandler()) return nativePermission(permission, read, false);
      var webQuery = webMethod(['permissions'], 'query');
      if (!webQuery) throw unavailable(permission.op);
      return callWeb(permission.op, read, function () {
        return webPermissionState(permission.op, permission.name, webQuery).then(function (state) {
          return permissionStatus(permission.name, state, false);
        });
      });
    });
  }

  function stopTracks(stream) {
    try {
      var tracks = stream.getTracks();
      for (var i = 0; i < tracks.length; i++) tracks[i].stop();
    } catch (_) {
      // nothing more to release
    }
  }

  /** Asks the browser by using the capability once: a short media stream, one position. */
  function webPrompt(name) {
    if (name === 'geolocation') {
      var locate = webMethod(['geolocation'], 'getCurrentPosition');
      if (!locate) return null;
      return function () {
        return new Promise(function (resolve) {
          locate(function () { resolve('granted'); }, function (err) {
            var code;
            try {
              code = isObject(err) ? err.code : undefined;
            } catch (_) {
              code = undefined;
            }
            // Any other failure (no fix, a timeout) comes after permission was given.
            resolve(code === PERMISSION_DENIED_CODE ? 'denied' : 'granted');
          }, { maximumAge: Infinity });
        });
      };
    }
    var getUserMedia = webMethod(['mediaDevices'], 'getUserMedia');
    if (!getUserMedia) return null;
    return function () {
      return Promise.resolve(getUserMedia(name === 'camera' ? { video: true } : { audio: true })).then(function (stream) {
        stopTracks(stream);
        return 'granted';
      }, function (err) {
        var kind = errorName(err);
        if (kind === 'NotAllowedError' || kind === 'SecurityError') return 'denied';
        throw err;
      });
    };
  }

  /**
   * Asks the user for a permission when they have not decided yet; resolves the state
   * it ends in. Outside a host the browser asks when the capability is first used, so
   * the capability is used once (a media stream stopped at once, one position).
   */
  function requestPermission(descriptor, options) {
    var permission;
    try {
      permission = readPermission(descriptor, 'request', WEB_QUERY);
    } catch (err) {
      return Promise.reject(err);
    }
    return perform(permission.op, options, function (read) {
      if (messageHandler()) return nativePermission(permission, read, true);
      var name = permission.name;
      var prompt = webPrompt(name);
      var webQuery = webMethod(['permissions'], 'query');
      var op = permission.op;
      if (prompt) {
        op = { module: op.module, action: op.action,
          web: name === 'geolocation' ? 'navigator.geolocation.getCurrentPosition' : 'navigator.mediaDevices.getUserMedia' };
      } else if (!webQuery) {
        throw unavailable(op);
      }
      return callWeb(op, read, function () {
        // A decided permission is answered without touching the device; a browser that
        // cannot query it still asks through the capability.
        var known = webQuery ? webPermissionState(op, name, webQuery) : Promise.resolve('prompt');
        if (prompt) known = known.then(undefined, function () { return 'prompt'; });
        return known.then(function (state) {
          if (state !== 'prompt' || !prompt) return state;
          return prompt();
        }).then(function (state) {
          return permissionStatus(name, state, false);
        });
      });
    });
  }

  var permissions = Object.freeze({ query: queryPermission, request: requestPermission });

  // ---------------------------------------------------------------- public

  function configure(options) {
    if (options !== undefined && options !== null) {
      if (!isRecord(options)) throw new TypeError('PWAKit.configure: options must be an object');
      if (options.defaultTimeout !== undefined) {
        var t = options.defaultTimeout;
        if (typeof t !== 'number' || !isFinite(t) || t <= 0 || t > MAX_TIMEOUT_MS) {
          throw new RangeError('PWAKit.configure: defaultTimeout must be a number of milliseconds in 1...' + MAX_TIMEOUT_MS);
        }
      }
      if (options.maxMessageBytes !== undefined) {
        var m = options.maxMessageBytes;
        if (typeof m !== 'number' || !isFinite(m) || m < 1 || Math.floor(m) !== m) {
          throw new RangeError('PWAKit.configure: maxMessageBytes must be a positive integer');
        }
      }
      if (options.onDiagnostic !== undefined && options.onDiagnostic !== null &&
          typeof options.onDiagnostic !== 'function') {
        throw new TypeError('PWAKit.configure: onDiagnostic must be a function or null');
      }
      if (options.defaultTimeout !== undefined) config.defaultTimeout = Math.ceil(options.defaultTimeout);
      if (options.maxMessageBytes !== undefined) config.maxMessageBytes = options.maxMessageBytes;
      if (options.onDiagnostic !== undefined) config.onDiagnostic = options.onDiagnostic;
    }
    return {
      defaultTimeout: config.defaultTimeout,
      maxMessageBytes: config.maxMessageBytes,
      onDiagnostic: config.onDiagnostic
    };
  }

  function call(module, action, payload, options) {
    return new Promise(function (resolve, reject) {
      start(module, action, payload, options, resolve, reject);
    });
  }

  // Tells the host the page has drawn what it needs to (a screenshot waits for it; an
  // updated bundle must send it from its own load). Resolves when the host acknowledged.
  function ready(options) {
    return call('lifecycle', 'ready', undefined, options);
  }

  var PWAKit = {
    version: VERSION,
    PWAKitError: PWAKitError,
    call: call,
    ready: ready,
    on: on,
    once: once,
    off: off,
    configure: configure,
    modules: modules,
    vibrate: vibrate,
    share: share,
    canShare: canShare,
    clipboard: clipboard,
    setAppBadge: setAppBadge,
    clearAppBadge: clearAppBadge,
    permissions: permissions
  };

  Object.defineProperty(PWAKit, 'isNative', {
    enumerable: true,
    get: function () { return messageHandler() !== null; }
  });

  Object.defineProperty(PWAKit, 'protocol', {
    enumerable: true,
    get: function () {
      try {
        var value = isObject(adopted) ? adopted.protocol : undefined;
        return isObject(value) ? value : null;
      } catch (_) {
        return null;
      }
    }
  });

  Object.defineProperty(PWAKit, 'inFlight', {
    enumerable: true,
    get: function () { return pending.size; }
  });

  Object.defineProperty(PWAKit, MARK, {
    value: { install: install, handleResponse: handleResponse, handleEvent: handleEvent }
  });

  install();
  root.PWAKit = PWAKit;
})(typeof globalThis !== 'undefined' ? globalThis
  : typeof self !== 'undefined' ? self
    : typeof window !== 'undefined' ? window : this);
