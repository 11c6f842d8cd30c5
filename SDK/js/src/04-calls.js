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

