  // ----------------------------------------------------------------- share

  var SHARE = { module: 'share', action: 'share', web: 'navigator.share' };
  var CAN_SHARE = { module: 'share', action: 'canShare', web: 'navigator.canShare' };
  var SHARE_TEXT_FIELDS = ['title', 'text', 'url'];
  /** URL schemes Web Share refuses: the local ones and `file`. */
  var UNSHAREABLE_SCHEMES = new Set(['about:', 'blob:', 'data:', 'file:']);
  /** Native answers that mean "this cannot be shared" to canShare, rather than a failed question. */
  var CANNOT_SHARE_CODES = new Set([
    'invalid_payload', 'payload_too_large', 'unavailable', 'unknown_module', 'unknown_action',
    'permission_denied', 'origin_not_allowed'
  ]);
  var BASE64_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
  var arrayBufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;

  /** The bytes of `buffer` when it is a real ArrayBuffer (of any realm), else null. */
  function bytesOf(buffer) {
    try {
      arrayBufferLength.call(buffer);
      return new Uint8Array(buffer);
    } catch (_) {
      return null;
    }
  }

  function base64(bytes) {
    var out = '';
    var n = bytes.length;
    var i = 0;
    for (; i + 2 < n; i += 3) {
      var v = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      out += BASE64_DIGITS[v >> 18] + BASE64_DIGITS[(v >> 12) & 63] + BASE64_DIGITS[(v >> 6) & 63] + BASE64_DIGITS[v & 63];
    }
    if (i < n) {
      var rest = (bytes[i] << 16) | (i + 1 < n ? bytes[i + 1] << 8 : 0);
      out += BASE64_DIGITS[rest >> 18] + BASE64_DIGITS[(rest >> 12) & 63] +
        (i + 1 < n ? BASE64_DIGITS[(rest >> 6) & 63] : '=') + '=';
    }
    return out;
  }

  /**
   * A Blob's type as a bare media type: parameters (`; charset=…`) dropped, and
   * `application/octet-stream` for anything that is not `type/subtype`.
   */
  function mediaType(type) {
    var bare = type.split(';')[0].trim();
    var parts = bare.split('/');
    if (parts.length !== 2 || parts[0] === '' || parts[1] === '' || /\s/.test(bare) || bare.length > 255) {
      return 'application/octet-stream';
    }
    return bare;
  }

  function base64Length(size) {
    return 4 * Math.ceil(size / 3);
  }

  /** `value` resolved against the page's address, when the page can parse URLs. */
  function shareURL(op, value) {
    var URLClass = root.URL;
    if (typeof URLClass !== 'function') return value;
    var base;
    try {
      base = root.location ? root.location.href : undefined;
    } catch (_) {
      base = undefined;
    }
    var url;
    try {
      url = typeof base === 'string' ? new URLClass(value, base) : new URLClass(value);
    } catch (err) {
      throw invalidInput(op, 'payload.url', 'payload.url is not a valid URL: ' + errorText(err), undefined, err);
    }
    if (UNSHAREABLE_SCHEMES.has(url.protocol)) {
      throw invalidInput(op, 'payload.url', 'payload.url cannot be shared: a ' + url.protocol + ' URL');
    }
    return url.href;
  }

  function readShareFile(op, item, index) {
    var at = { index: index };
    if (!isObject(item)) {
      throw invalidInput(op, 'payload.files', 'files[' + index + '] must be a File or Blob, got ' + describe(item), at);
    }
    var read = readField(op, item, 'arrayBuffer', 'payload.files', at);
    var size = readField(op, item, 'size', 'payload.files', at);
    var type = readField(op, item, 'type', 'payload.files', at);
    var name = readField(op, item, 'name', 'payload.files', at);
    if (typeof read !== 'function' || typeof size !== 'number' || !isFinite(size) || size < 0 ||
        (type !== undefined && typeof type !== 'string') || (name !== undefined && typeof name !== 'string')) {
      throw invalidInput(op, 'payload.files', 'files[' + index + '] must be a File or Blob', at);
    }
    return {
      blob: item,
      read: read,
      size: size,
      type: type || '',
      name: name || '',
      fallbackName: 'file-' + (index + 1)
    };
  }

  /** Reads share data once, checking every field: `{title?, text?, url?, files}`. */
  function readShareData(op, data) {
    if (!isRecord(data)) {
      throw invalidInput(op, 'payload', 'share data must be an object, got ' + describe(data));
    }
    var out = { files: [] };
    var present = false;
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var key = SHARE_TEXT_FIELDS[i];
      var value = readField(op, data, key, 'payload.' + key);
      if (value === undefined) continue;
      if (typeof value !== 'string') {
        throw invalidInput(op, 'payload.' + key, 'payload.' + key + ' must be a string, got ' + describe(value));
      }
      out[key] = key === 'url' ? shareURL(op, value) : value;
      present = true;
    }
    var files = readField(op, data, 'files', 'payload.files');
    if (files !== undefined) {
      if (!isArray(files)) {
        throw invalidInput(op, 'payload.files', 'payload.files must be an array of File or Blob, got ' + describe(files));
      }
      var count = readField(op, files, 'length', 'payload.files');
      if (typeof count !== 'number' || !(count >= 0)) {
        throw invalidInput(op, 'payload.files', 'payload.files.length must be a number, got ' + show(count));
      }
      for (var j = 0; j < count; j++) {
        out.files.push(readShareFile(op, readField(op, files, j, 'payload.files', { index: j }), j));
      }
    }
    if (!present && out.files.length === 0) {
      throw invalidInput(op, 'payload', 'share data needs at least one of title, text, url or files');
    }
    return out;
  }

  /**
   * A lower bound of the encoded message's size with these files at these sizes; over
   * the limit, the message certainly is.
   */
  function shareEstimate(data, sizes) {
    var total = 0;
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var value = data[SHARE_TEXT_FIELDS[i]];
      if (value !== undefined) total += utf8Length(value);
    }
    for (var j = 0; j < data.files.length; j++) {
      var file = data.files[j];
      // NB: 31 is the JSON around one file: {"name":"","type":"","data":""},
      total += base64Length(sizes[j]) + utf8Length(file.name || file.fallbackName) + utf8Length(mediaType(file.type)) + 31;
    }
    return total;
  }

  function checkShareSize(op, data, sizes) {
    var estimate = shareEstimate(data, sizes);
    var limit = config.maxMessageBytes;
    if (estimate > limit) {
      throw opError(op, 'payload_too_large', 'the files need at least ' + estimate +
        ' bytes encoded, over the message limit of ' + limit + ' bytes', { path: 'payload.files', size: estimate, limit: limit });
    }
  }

  /** The native payload: the text fields, and each file read and base64-encoded as `{name, type, data}`. */
  async function nativeSharePayload(op, data, signal) {
    var payload = {};
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var key = SHARE_TEXT_FIELDS[i];
      if (data[key] !== undefined) payload[key] = data[key];
    }
    if (data.files.length === 0) return payload;
    // Refuse before reading anything when the declared sizes cannot fit; then again
    // with the real sizes, which a Blob-like object may have understated.
    var sizes = data.files.map(function (file) { return file.size; });
    checkShareSize(op, data, sizes);
    var encoded = [];
    for (var j = 0; j < data.files.length; j++) {
      var file = data.files[j];
      var at = { index: j };
      var buffer;
      try {
        buffer = await file.read.call(file.blob);
      } catch (err) {
        throw invalidInput(op, 'payload.files', 'reading files[' + j + '] failed: ' + errorText(err), at, err);
      }
      if (signal && signal.aborted) throw abortError(signal, op);
      var bytes = bytesOf(buffer);
      if (bytes === null) {
        throw invalidInput(op, 'payload.files', 'files[' + j + '].arrayBuffer() did not give an ArrayBuffer', at);
      }
      sizes[j] = bytes.length;
      checkShareSize(op, data, sizes);
      encoded.push({
        name: file.name || file.fallbackName,
        type: mediaType(file.type),
        data: base64(bytes)
      });
    }
    payload.files = encoded;
    return payload;
  }

  /** Share data for the Web API: a Blob without a name becomes a File, where the browser can make one. */
  function webShareData(op, data) {
    var out = {};
    for (var i = 0; i < SHARE_TEXT_FIELDS.length; i++) {
      var key = SHARE_TEXT_FIELDS[i];
      if (data[key] !== undefined) out[key] = data[key];
    }
    if (data.files.length === 0) return out;
    var FileClass = root.File;
    out.files = data.files.map(function (file, index) {
      if (file.name !== '') return file.blob;
      if (typeof FileClass !== 'function') {
        throw invalidInput(op, 'payload.files', 'files[' + index + '] is a Blob and this browser cannot make it a File',
          { index: index });
      }
      try {
        return new FileClass([file.blob], file.fallbackName, { type: file.type });
      } catch (err) {
        throw invalidInput(op, 'payload.files', 'files[' + index + '] cannot be made a File: ' + errorText(err),
          { index: index }, err);
      }
    });
    return out;
  }

  /** Opens the share sheet with `data`; resolves `{shared}`, `false` when the user dismissed it. */
  function share(data, options) {
    return perform(SHARE, options, function (read) {
      var parsed = readShareData(SHARE, data);
      if (messageHandler()) {
        return nativeSharePayload(SHARE, parsed, read.signal).then(function (payload) {
          return callNative(SHARE, payload, read, true);
        }).then(function (answer) {
          return { shared: answerField(SHARE, answer, 'shared', isBoolean) };
        });
      }
      var web = webMethod([], 'share');
      if (!web) throw unavailable(SHARE);
      var webData = webShareData(SHARE, parsed);
      return callWeb(SHARE, read, function () {
        return new Promise(function (resolve) { resolve(web(webData)); }).then(function () {
          return { shared: true };
        }, function (err) {
          if (errorName(err) === 'AbortError') return { shared: false };
          throw err;
        });
      });
    });
  }

  function cannotShare(err) {
    if (err instanceof PWAKitError && CANNOT_SHARE_CODES.has(err.code)) return false;
    throw err;
  }

  /**
   * Whether `share(data)` could share this data. It resolves `false` rather than
   * rejecting when the data is invalid or sharing is not possible at all.
   */
  function canShare(data, options) {
    return perform(CAN_SHARE, options, function (read) {
      var parsed;
      try {
        parsed = readShareData(CAN_SHARE, data);
      } catch (err) {
        return cannotShare(err);
      }
      if (messageHandler()) {
        return nativeSharePayload(CAN_SHARE, parsed, read.signal).then(function (payload) {
          return callNative(CAN_SHARE, payload, read, false);
        }).then(function (answer) {
          return answerField(CAN_SHARE, answer, 'canShare', isBoolean);
        }, cannotShare);
      }
      var webShare = webMethod([], 'share');
      if (!webShare) return false;
      var webData;
      try {
        webData = webShareData(CAN_SHARE, parsed);
      } catch (err) {
        return cannotShare(err);
      }
      var webCanShare = webMethod([], 'canShare');
      return callWeb(CAN_SHARE, read, function () {
        // NB: a browser with share but without canShare (Safari before 14) shares no files.
        if (!webCanShare) return parsed.files.length === 0;
        try {
          return webCanShare(webData) === true;
        } catch (_) {
          return false;
        }
      });
    });
  }

