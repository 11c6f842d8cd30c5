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

