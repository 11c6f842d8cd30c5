  // --------------------------------------------------------------- modules

  // NB: names the language or common libraries probe on any object (`await` reads
  // `then`, JSON.stringify `toJSON`, string conversion `toString`/`valueOf`, …). On
  // the proxies they keep their ordinary meaning instead of naming a module or action.
  var ORDINARY_NAMES = new Set([
    'then', 'toJSON', 'constructor', '__proto__', 'toString', 'toLocaleString', 'valueOf',
    'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable',
    '__defineGetter__', '__defineSetter__', '__lookupGetter__', '__lookupSetter__'
  ]);
  /** The longest module or action name the host accepts (UTF-8 bytes). */
  var MAX_NAME_BYTES = 128;
  /** How many module proxies, and actions per module, are kept for reuse. */
  var PROXY_CACHE_LIMIT = 256;

  /** Whether `key` may name a module or action on the proxies. */
  function isCallableName(key) {
    return typeof key === 'string' && key !== '' && !ORDINARY_NAMES.has(key) &&
      key.length <= MAX_NAME_BYTES && utf8Length(key) <= MAX_NAME_BYTES;
  }

  function refuse() {
    return false;
  }

  /**
   * A read-only proxy over an empty object: callable names come from `lookup`; every
   * other key (symbols, ordinary names) behaves as on the empty object itself.
   */
  function namespace(tag, lookup) {
    var target = {};
    Object.defineProperty(target, typeof Symbol === 'function' ? Symbol.toStringTag : '@@toStringTag', { value: tag });
    var cache = new Map();
    return new Proxy(target, {
      get: function (object, key, receiver) {
        if (!isCallableName(key)) return Reflect.get(object, key, receiver);
        var value = cache.get(key);
        if (value === undefined) {
          value = lookup(key);
          if (cache.size < PROXY_CACHE_LIMIT) cache.set(key, value);
        }
        return value;
      },
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
      preventExtensions: refuse
    });
  }

  function actionFunction(module, action) {
    var fn = function (payload, options) {
      return call(module, action, payload, options);
    };
    try {
      Object.defineProperty(fn, 'name', { value: module + '.' + action });
    } catch (_) {
      // an engine with a fixed name keeps the anonymous one
    }
    return fn;
  }

  /** `PWAKit.modules.<module>.<action>(payload, options)` is `PWAKit.call(module, action, payload, options)`. */
  var modules = namespace('PWAKit.modules', function (module) {
    return namespace('PWAKit.modules.' + module, function (action) {
      return actionFunction(module, action);
    });
  });

