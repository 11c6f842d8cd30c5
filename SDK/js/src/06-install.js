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

