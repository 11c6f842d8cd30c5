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

