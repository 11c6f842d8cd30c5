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

