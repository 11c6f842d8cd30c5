// How the SDK takes its place on the page: window.pwakit, the handshake, loading twice,
// and living beside a page's own (seed-era) bridge script.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, track } from '../test-support/harness.mjs';

const PROTOCOL = { version: 1, capabilities: ['cancel', 'timeoutMs', 'reply'], schemaHash: 'sha256:abc' };

test('without a host object the SDK creates window.pwakit with both handlers', () => {
  const page = createPage();
  assert.equal(typeof page.window.pwakit, 'object');
  assert.equal(typeof page.window.pwakit._handleResponse, 'function');
  assert.equal(typeof page.window.pwakit._handleEvent, 'function');
  assert.equal(page.PWAKit.protocol, null);
});

test('a host-provided window.pwakit is extended, not replaced, and its protocol exposed', () => {
  const host = { protocol: PROTOCOL, hostValue: 'kept' };
  const page = createPage({ pwakit: host });
  assert.equal(page.window.pwakit, host, 'same object');
  assert.equal(host.hostValue, 'kept');
  assert.equal(host.protocol, PROTOCOL, 'protocol not clobbered');
  assert.equal(page.PWAKit.protocol, PROTOCOL);
  assert.equal(typeof host._handleResponse, 'function');
  assert.equal(page.eval('pwakit === globalThis.pwakit && typeof pwakit._handleEvent'), 'function');
});

test('a protocol the host sets after the SDK loaded is exposed', () => {
  const page = createPage();
  page.window.pwakit.protocol = PROTOCOL;
  assert.equal(page.PWAKit.protocol, PROTOCOL);
});

test('a protocol that is not an object reads as null', () => {
  const page = createPage({ pwakit: { protocol: 'v1' } });
  assert.equal(page.PWAKit.protocol, null);
});

test('loading the SDK twice reuses the first instance and its pending calls', async () => {
  const page = createPage();
  const first = page.PWAKit;
  const result = page.PWAKit.call('m', 'a');
  const id = page.native.last.id;
  const seen = [];
  first.on('tick', (n) => seen.push(n));
  const second = page.load();
  assert.equal(second, first);
  assert.equal(page.PWAKit, first);
  assert.equal(page.PWAKit.inFlight, 1);
  page.succeed(id, 'still routed');
  assert.equal(await result, 'still routed');
  page.emit({ type: 'tick', data: 1 });
  assert.deepEqual(seen, [1], 'one delivery, not two');
});

test('a second load re-routes window.pwakit if the page broke it', async () => {
  const page = createPage();
  const result = page.PWAKit.call('m', 'a');
  const id = page.native.last.id;
  page.window.pwakit = null;
  page.load();
  assert.equal(typeof page.window.pwakit._handleResponse, 'function');
  page.succeed(id, 'recovered');
  assert.equal(await result, 'recovered');
});

test('an existing page handler keeps answering the calls it made', async () => {
  const theirs = [];
  const existing = {
    protocol: PROTOCOL,
    _handleResponse(response) { theirs.push(['response', plain(response)]); },
    _handleEvent(event) { theirs.push(['event', plain(event)]); }
  };
  const page = createPage({ pwakit: existing });
  const mine = page.PWAKit.call('m', 'a');
  const id = page.native.last.id;
  assert.equal(page.succeed('their-call', 'for them'), true);
  page.succeed(id, 'for me');
  assert.equal(await mine, 'for me');
  assert.deepEqual(theirs, [['response', { id: 'their-call', success: true, data: 'for them' }]]);
});

// A page that ships its own bridge script, written the way seed-era pages did:
// extend window.pwakit if present, then install its own handlers on it.
const SEED_STYLE_BRIDGE = `
  (function () {
    var callbacks = {};
    var counter = 0;
    window.pwakit = window.pwakit || { _callbacks: {} };
    window.pwakit._handleResponse = function (response) {
      var cb = callbacks[response.id];
      if (!cb) return;
      delete callbacks[response.id];
      if (response.success) cb.resolve(response.data); else cb.reject(new Error(response.error));
    };
    window.pwakit._handleEvent = function (event) {
      window.dispatchEvent(new CustomEvent('pwa:' + event.type, { detail: event.data, bubbles: true }));
    };
    window.seedCall = function (module, action, payload) {
      return new Promise(function (resolve, reject) {
        var id = 'seed-' + (++counter);
        callbacks[id] = { resolve: resolve, reject: reject };
        window.webkit.messageHandlers.pwakit.postMessage(JSON.stringify({ id: id, module: module, action: action, payload: payload }));
      });
    };
  })();
`;

function seedPage(options) {
  const page = createPage(options);
  page.window.window = page.window;
  page.eval(SEED_STYLE_BRIDGE);
  return page;
}

test('a seed-era bridge script loaded after the SDK works unchanged beside it', async () => {
  const page = seedPage({ pwakit: { protocol: PROTOCOL } });
  const seedResult = page.eval("seedCall('platform', 'getInfo')");
  const seedMessage = JSON.parse(page.native.posted.at(-1));
  const sdkResult = page.PWAKit.call('haptics', 'impact', { style: 'light' });
  const sdkMessage = page.native.last;
  page.succeed(sdkMessage.id, 'sdk answer');
  page.succeed(seedMessage.id, 'seed answer');
  assert.equal(await seedResult, 'seed answer');
  assert.equal(await sdkResult, 'sdk answer');
  assert.equal(page.PWAKit.protocol, PROTOCOL);
});

test('beside a seed-era bridge each event reaches the DOM once and SDK listeners once', () => {
  const page = seedPage();
  const dom = page.domEvents('push');
  const sdk = [];
  page.PWAKit.on('push', (data) => sdk.push(plain(data)));
  page.emit({ type: 'push', data: { title: 'once' } });
  assert.deepEqual(plain(dom), [{ title: 'once' }]);
  assert.deepEqual(sdk, [{ title: 'once' }]);
});

test('a page that replaces window.pwakit wholesale keeps SDK calls routed', async () => {
  const page = createPage({ pwakit: { protocol: PROTOCOL } });
  const result = track(page.PWAKit.call('m', 'a'));
  const id = page.native.last.id;
  const theirs = [];
  page.window.pwakit = { _handleResponse: (r) => theirs.push(plain(r)), own: true };
  assert.equal(page.window.pwakit.own, true);
  assert.equal(page.window.pwakit.protocol, PROTOCOL, 'the handshake survives the replacement');
  page.succeed(id, 'mine');
  page.succeed('theirs-1', 'theirs');
  await flush();
  assert.equal(result.value, 'mine');
  assert.deepEqual(theirs, [{ id: 'theirs-1', success: true, data: 'theirs' }]);
});

test('setting a handler to a non-function removes the page delegate', () => {
  const theirs = [];
  const page = createPage({ pwakit: { _handleResponse: (r) => theirs.push(r) } });
  const diagnostics = page.watchDiagnostics();
  page.window.pwakit._handleResponse = null;
  assert.equal(typeof page.window.pwakit._handleResponse, 'function');
  assert.equal(page.succeed('stranger', 1), false);
  assert.deepEqual(theirs, []);
  assert.deepEqual(diagnostics.map((d) => d.kind), ['unknown_id']);
});

test('a throwing page delegate is reported and does not break the SDK', async () => {
  const page = createPage({ pwakit: { _handleResponse() { throw new Error('theirs broke'); } } });
  const diagnostics = page.watchDiagnostics();
  assert.doesNotThrow(() => page.succeed('stranger', 1));
  assert.deepEqual(diagnostics.map((d) => d.kind), ['delegate_error']);
  const result = page.PWAKit.call('m', 'a');
  page.succeed(page.native.last.id, 'ok');
  assert.equal(await result, 'ok');
});

test('a frozen host object never makes the SDK throw, and its protocol is still read', async () => {
  const frozen = Object.freeze({ protocol: PROTOCOL });
  let page;
  assert.doesNotThrow(() => { page = createPage({ pwakit: frozen }); });
  assert.equal(page.PWAKit.protocol, PROTOCOL);
  // NB: a frozen object cannot take the SDK's handlers, so answers cannot reach it; a call still
  // returns a promise rather than throwing.
  assert.equal(page.window.pwakit._handleResponse, undefined);
  let call;
  assert.doesNotThrow(() => { call = page.PWAKit.call('m', 'a'); });
  assert.equal(typeof call.then, 'function');
  call.catch(() => {});
});

test('isNative follows the presence of the message handler', () => {
  const page = createPage();
  assert.equal(page.PWAKit.isNative, true);
  delete page.window.webkit.messageHandlers.pwakit;
  assert.equal(page.PWAKit.isNative, false);
  page.window.webkit.messageHandlers.pwakit = { postMessage: 'not a function' };
  assert.equal(page.PWAKit.isNative, false);
  Object.defineProperty(page.window.webkit, 'messageHandlers', { get() { throw new Error('hostile'); } });
  assert.equal(page.PWAKit.isNative, false);
});

test('PWAKit exposes its version and the documented surface', () => {
  const page = createPage();
  const { PWAKit } = page;
  assert.match(PWAKit.version, /^\d+\.\d+\.\d+$/);
  for (const name of ['call', 'on', 'once', 'off', 'configure', 'PWAKitError']) {
    assert.equal(typeof PWAKit[name], 'function', name);
  }
  assert.equal(typeof PWAKit.isNative, 'boolean');
  assert.equal(typeof PWAKit.inFlight, 'number');
});
