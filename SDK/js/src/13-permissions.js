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

