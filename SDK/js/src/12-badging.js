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

