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
