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

