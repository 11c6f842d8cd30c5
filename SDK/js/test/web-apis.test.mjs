// What every Web API counterpart promises, whatever it is handed: a Promise that settles
// with a PWAKitError naming the native action, never a synchronous throw, never a post.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage } from '../test-support/harness.mjs';

/** Each function with a valid first argument, and its native module and action. */
const FUNCTIONS = [
  ['vibrate', (P, input, options) => P.vibrate(input, options), 100, 'vibration', 'vibrate'],
  ['share', (P, input, options) => P.share(input, options), { text: 'x' }, 'share', 'share'],
  ['clipboard.writeText', (P, input, options) => P.clipboard.writeText(input, options), 'x', 'clipboard', 'write'],
  ['setAppBadge', (P, input, options) => P.setAppBadge(input, options), 1, 'badging', 'set'],
  ['permissions.query', (P, input, options) => P.permissions.query(input, options), { name: 'camera' }, 'camera', 'check'],
  ['permissions.request', (P, input, options) => P.permissions.request(input, options), { name: 'location' }, 'location', 'request']
];

/** Inputs that break careless readers. */
function hostileValues() {
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const revokedArray = Proxy.revocable([], {});
  revokedArray.revoke();
  const trapAll = new Proxy({}, {
    get() { throw new Error('get'); },
    has() { throw new Error('has'); },
    ownKeys() { throw new Error('ownKeys'); },
    getOwnPropertyDescriptor() { throw new Error('descriptor'); },
    getPrototypeOf() { throw new Error('prototype'); }
  });
  const throwingAll = {};
  for (const key of ['title', 'text', 'url', 'files', 'name', 'length', 'timeout', 'signal', 'then', 'toJSON']) {
    Object.defineProperty(throwingAll, key, { get() { throw new Error(key); }, enumerable: true });
  }
  return [revoked.proxy, revokedArray.proxy, trapAll, throwingAll, Object.create(null), Symbol('s'), 10n ** 30n, () => {}];
}

test('every Web API counterpart settles with a PWAKitError for hostile input, on every path, without posting', async () => {
  for (const native of [true, false]) {
    const page = createPage({ native });
    const PWAKitError = page.PWAKit.PWAKitError;
    for (const [label, run, , module, action] of FUNCTIONS) {
      for (const [n, value] of hostileValues().entries()) {
        let promise;
        assert.doesNotThrow(() => { promise = run(page.PWAKit, value); }, `${label} #${n}`);
        const error = await promise.then(() => assert.fail(`${label} #${n} resolved`), (caught) => caught);
        assert.ok(error instanceof PWAKitError, `${label} #${n}: ${error}`);
        assert.equal(error.code, 'invalid_payload', `${label} #${n}`);
        if (!label.startsWith('permissions')) {
          assert.equal(error.module, module);
          assert.equal(error.action, action);
        }
      }
    }
    assert.equal(page.native.posted.length, 0);
  }
});

test('every Web API counterpart refuses hostile options with invalid_message naming its native action', async () => {
  const page = createPage();
  const PWAKitError = page.PWAKit.PWAKitError;
  const all = [
    ...FUNCTIONS,
    ['canShare', (P, input, options) => P.canShare(input, options), { text: 'x' }, 'share', 'canShare'],
    ['clipboard.readText', (P, _input, options) => P.clipboard.readText(options), undefined, 'clipboard', 'read'],
    ['clearAppBadge', (P, _input, options) => P.clearAppBadge(options), undefined, 'badging', 'clear']
  ];
  for (const [label, run, input, module, action] of all) {
    // Revoked proxies, a proxy whose every trap throws, getters that throw.
    for (const [n, options] of hostileValues().slice(0, 4).entries()) {
      const error = await run(page.PWAKit, input, options).then(() => assert.fail(`${label} #${n} resolved`), (caught) => caught);
      assert.ok(error instanceof PWAKitError, `${label} #${n}`);
      assert.equal(error.code, 'invalid_message', `${label} #${n}`);
      assert.match(error.details.path, /^options/);
      assert.equal(error.module, module, label);
      assert.equal(error.action, action, label);
    }
  }
  assert.equal(page.native.posted.length, 0);
});

test('the Web API counterparts need no this: they work detached from PWAKit', async () => {
  const page = createPage({ native: false });
  const { vibrate, share, canShare, setAppBadge, clearAppBadge } = page.PWAKit;
  const { writeText, readText } = page.PWAKit.clipboard;
  const { query, request } = page.PWAKit.permissions;
  for (const pending of [vibrate(1), share({ text: 'x' }), writeText('x'), readText(), setAppBadge(1), clearAppBadge(),
    query({ name: 'camera' }), request({ name: 'camera' })]) {
    await assert.rejects(pending, (error) => error.code === 'unavailable');
  }
  assert.equal(await canShare({ text: 'x' }), false);
});
