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

