// Test harness: runs pwakit.js inside a fresh `vm` context that plays the page's
// window, with a fake clock and a scriptable fake native message handler.
import vm from 'node:vm';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { randomUUID, webcrypto } from 'node:crypto';

export const SDK_PATH = new URL('../pwakit.js', import.meta.url);
export const SDK_SOURCE = readFileSync(SDK_PATH, 'utf8');
const SCRIPT = new vm.Script(SDK_SOURCE, { filename: 'pwakit.js' });

/** A manual clock: timers fire only when a test advances time. */
export class FakeClock {
  constructor() {
    this.now = 0;
    this.timers = new Map();
    this.nextHandle = 1;
    this.setTimeout = (fn, ms = 0, ...args) => {
      const handle = this.nextHandle++;
      const delay = Number.isFinite(ms) && ms > 0 ? ms : 0;
      this.timers.set(handle, { at: this.now + delay, fn, args, seq: handle });
      return handle;
    };
    this.clearTimeout = (handle) => {
      this.timers.delete(handle);
    };
  }

  /** Number of timers still scheduled. */
  get scheduled() {
    return this.timers.size;
  }

  /** Moves time forward by `ms`, firing due timers in order. */
  advance(ms) {
    const target = this.now + ms;
    for (;;) {
      let next = null;
      for (const [handle, timer] of this.timers) {
        if (timer.at > target) continue;
        if (next === null || timer.at < next.timer.at ||
            (timer.at === next.timer.at && timer.seq < next.timer.seq)) {
          next = { handle, timer };
        }
      }
      if (next === null) break;
      this.timers.delete(next.handle);
      this.now = next.timer.at;
      next.timer.fn(...next.timer.args);
    }
    this.now = target;
  }
}

/**
 * The native side of the bridge as the page sees it: a message handler whose
 * `postMessage` records what it got. In `promise` mode it returns a Promise that
 * a test resolves with `reply(id, value)` (the WebKit "with reply" handler).
 */
export class FakeNative {
  constructor(mode) {
    this.mode = mode;
    this.posted = [];
    this.replies = new Map();
    this.onPost = null;
    this.handler = {
      postMessage: (message) => {
        this.posted.push(message);
        let result;
        if (this.mode === 'promise') {
          result = new Promise((resolve, reject) => {
            if (message && typeof message.id === 'string' && message.cancel !== true) {
              this.replies.set(message.id, { resolve, reject });
            } else {
              resolve(undefined);
            }
          });
        } else if (this.mode === 'promise-undefined') {
          result = Promise.resolve(undefined);
        }
        if (this.onPost) this.onPost(message);
        return result;
      }
    };
  }

  /** Call messages (not cancels), in the order posted. */
  get calls() {
    return this.posted.filter((m) => m.cancel !== true);
  }

  /** Cancel messages, in the order posted. */
  get cancels() {
    return this.posted.filter((m) => m.cancel === true);
  }

  /** The most recent call message. */
  get last() {
    const calls = this.calls;
    assert.ok(calls.length > 0, 'nothing was posted');
    return calls[calls.length - 1];
  }

  /** Resolves the Promise a `promise`-mode postMessage returned. */
  reply(id, value) {
    const pending = this.replies.get(id);
    assert.ok(pending, `no Promise reply pending for ${id}`);
    this.replies.delete(id);
    pending.resolve(value);
  }

  /** Rejects the Promise a `promise`-mode postMessage returned. */
  rejectReply(id, error) {
    const pending = this.replies.get(id);
    assert.ok(pending, `no Promise reply pending for ${id}`);
    this.replies.delete(id);
    pending.reject(error);
  }
}

/**
 * Creates a page: a vm context whose global has EventTarget methods, a fake
 * clock, optionally `webkit.messageHandlers.pwakit`, `crypto` and a pre-existing
 * `pwakit`; then loads the SDK into it (unless `load: false`).
 */
export function createPage(options = {}) {
  const {
    native = true,
    mode = 'script',
    crypto = true,
    pwakit,
    load = true
  } = options;
  const clock = new FakeClock();
  const target = new EventTarget();
  const reported = [];
  const diagnostics = [];
  const fake = new FakeNative(mode);
  const sandbox = {
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    dispatchEvent: target.dispatchEvent.bind(target),
    CustomEvent,
    reportError: (err) => reported.push(err),
    console
  };
  if (crypto) {
    sandbox.crypto = {
      randomUUID: () => randomUUID(),
      getRandomValues: (array) => webcrypto.getRandomValues(array)
    };
  }
  if (native) sandbox.webkit = { messageHandlers: { pwakit: fake.handler } };
  if (pwakit !== undefined) sandbox.pwakit = pwakit;
  const window = vm.createContext(sandbox);

  const page = {
    window,
    clock,
    native: fake,
    reported,
    diagnostics,
    /** Runs pwakit.js in this page (again). */
    load() {
      SCRIPT.runInContext(window);
      return window.PWAKit;
    },
    /** Evaluates source in the page. */
    eval(source) {
      return vm.runInContext(source, window);
    },
    get PWAKit() {
      return window.PWAKit;
    },
    /** Delivers a native response the way a host does. */
    respond(response) {
      return window.pwakit._handleResponse(response);
    },
    succeed(id, data) {
      return page.respond(data === undefined ? { id, success: true } : { id, success: true, data });
    },
    failWith(id, code, error, details) {
      const response = { id, success: false, error, code };
      if (details !== undefined) response.details = details;
      return page.respond(response);
    },
    emit(event) {
      return window.pwakit._handleEvent(event);
    },
    /** Records diagnostics reported by the SDK. */
    watchDiagnostics() {
      window.PWAKit.configure({ onDiagnostic: (info) => diagnostics.push(info) });
      return diagnostics;
    },
    /** Collects DOM `pwa:<type>` events dispatched on the page's window. */
    domEvents(type) {
      const seen = [];
      target.addEventListener('pwa:' + type, (event) => seen.push(event.detail));
      return seen;
    }
  };
  if (load) page.load();
  return page;
}

/**
 * Copies a value made inside the page into this realm, so that strict deep
 * equality (which compares prototypes) can check it against literals here.
 */
export function plain(value) {
  return value === undefined ? undefined : structuredClone(value);
}

/** Lets queued promise reactions run. */
export async function flush() {
  for (let i = 0; i < 5; i++) await Promise.resolve();
  await new Promise((resolve) => setImmediate(resolve));
}

/** Observes a promise without letting it go unhandled; read `.state` / `.value` later. */
export function track(promise) {
  const box = { state: 'pending', value: undefined };
  promise.then(
    (value) => { box.state = 'fulfilled'; box.value = value; },
    (error) => { box.state = 'rejected'; box.value = error; }
  );
  return box;
}

/** Asserts that `promise` rejects with a PWAKitError carrying the given fields. */
export async function rejectsWith(promise, expected) {
  let error;
  try {
    await promise;
  } catch (caught) {
    error = caught;
  }
  assert.ok(error !== undefined, `expected a rejection with code ${expected.code}`);
  assert.equal(error.name, 'PWAKitError', `not a PWAKitError: ${error && error.stack}`);
  for (const [key, value] of Object.entries(expected)) {
    if (value instanceof RegExp) {
      assert.match(error[key], value, `error.${key}`);
    } else {
      assert.deepEqual(plain(error[key]), value, `error.${key}`);
    }
  }
  return error;
}

/** Waits until the page has posted more than `count` calls (work before posting may be async); returns the latest. */
export async function postedAfter(page, count = 0) {
  for (let i = 0; i < 100 && page.native.calls.length <= count; i++) await flush();
  return page.native.last;
}
