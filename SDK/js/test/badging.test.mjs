// PWAKit.setAppBadge / clearAppBadge: badging.set / badging.clear inside a host,
// navigator.setAppBadge / clearAppBadge outside one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

/** A navigator recording badge calls as [method, ...arguments]. */
function fakeNavigator(outcome = 'resolve') {
  const calls = [];
  const settle = () => {
    if (outcome === 'resolve') return Promise.resolve(undefined);
    if (outcome === 'never') return new Promise(() => {});
    return Promise.reject(outcome);
  };
  return {
    calls,
    setAppBadge(...args) { calls.push(['set', ...args]); return settle(); },
    clearAppBadge(...args) { calls.push(['clear', ...args]); return settle(); }
  };
}

test('in a host setAppBadge posts badging.set {count} and resolves undefined', async () => {
  const page = createPage();
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  const result = page.PWAKit.setAppBadge(3);
  const message = page.native.last;
  assert.deepEqual(plain(message), {
    id: message.id, module: 'badging', action: 'set', payload: { count: 3 }, timeoutMs: 30000
  });
  page.succeed(message.id, null);
  assert.equal(await result, undefined);
  for (const [count, sent] of [[0, 0], [7.9, 7], [Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER], [undefined, 1]]) {
    const next = page.PWAKit.setAppBadge(count);
    assert.deepEqual(plain(page.native.last.payload), { count: sent }, `count ${count}`);
    page.succeed(page.native.last.id, null);
    await next;
  }
  assert.deepEqual(navigator.calls, [], 'the Web API is not used inside a host');
});

test('in a host clearAppBadge posts badging.clear without a payload', async () => {
  const page = createPage();
  const result = page.PWAKit.clearAppBadge({ timeout: 800 });
  const message = page.native.last;
  assert.deepEqual(plain(message), { id: message.id, module: 'badging', action: 'clear', timeoutMs: 800 });
  page.succeed(message.id, null);
  assert.equal(await result, undefined);
});

test('native errors pass through, unavailable included (no fallback)', async () => {
  const page = createPage();
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  const set = page.PWAKit.setAppBadge(1);
  page.failWith(page.native.last.id, 'unavailable', 'off');
  await rejectsWith(set, { code: 'unavailable', module: 'badging', action: 'set' });
  const clear = page.PWAKit.clearAppBadge();
  page.failWith(page.native.last.id, 'badging.denied', 'notifications are off');
  await rejectsWith(clear, { code: 'badging.denied', module: 'badging', action: 'clear' });
  assert.deepEqual(navigator.calls, []);
});

test('outside a host the Badging API gets the count, or no argument for a plain mark', async () => {
  const page = createPage({ native: false });
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  assert.equal(await page.PWAKit.setAppBadge(5), undefined);
  assert.equal(await page.PWAKit.setAppBadge(2.5), undefined);
  assert.equal(await page.PWAKit.setAppBadge(), undefined);
  assert.equal(await page.PWAKit.clearAppBadge(), undefined);
  assert.deepEqual(navigator.calls, [['set', 5], ['set', 2], ['set'], ['clear']]);
});

test('outside a host badge errors map by name and keep their cause', async () => {
  const denied = new DOMException('no permission', 'NotAllowedError');
  const page = createPage({ native: false });
  page.window.navigator = fakeNavigator(denied);
  const error = await rejectsWith(page.PWAKit.setAppBadge(1), { code: 'permission_denied', module: 'badging', action: 'set' });
  assert.equal(error.cause, denied);
  page.window.navigator = fakeNavigator(new DOMException('x', 'InvalidStateError'));
  await rejectsWith(page.PWAKit.clearAppBadge(), { code: 'module_error', action: 'clear' });
  page.window.navigator = fakeNavigator('never');
  const controller = new AbortController();
  const waiting = track(page.PWAKit.clearAppBadge({ signal: controller.signal }));
  controller.abort();
  await flush();
  assert.equal(waiting.value.code, 'cancelled');
});

test('with neither a host nor the Badging API both reject with unavailable', async () => {
  for (const navigator of [undefined, {}, { setAppBadge: 1, clearAppBadge: null },
    { get setAppBadge() { throw new Error('hostile'); }, get clearAppBadge() { throw new Error('hostile'); } }]) {
    const page = createPage({ native: false });
    if (navigator !== undefined) page.window.navigator = navigator;
    await rejectsWith(page.PWAKit.setAppBadge(1), { code: 'unavailable', module: 'badging', action: 'set' });
    await rejectsWith(page.PWAKit.clearAppBadge(), { code: 'unavailable', module: 'badging', action: 'clear' });
  }
});

test('an invalid count is invalid_payload at payload.count on every path', async () => {
  const counts = [-1, -0.5, NaN, Infinity, -Infinity, Number.MAX_SAFE_INTEGER + 2, 1e300, '3', null, true, {}, [1], 1n,
    { valueOf: () => 3 }];
  for (const native of [true, false]) {
    const page = createPage({ native });
    const navigator = fakeNavigator();
    page.window.navigator = navigator;
    for (const count of counts) {
      await rejectsWith(page.PWAKit.setAppBadge(count), {
        code: 'invalid_payload', module: 'badging', action: 'set', details: { path: 'payload.count' }
      });
    }
    await rejectsWith(page.PWAKit.setAppBadge(1, { timeout: 'x' }), { code: 'invalid_message' });
    await rejectsWith(page.PWAKit.clearAppBadge([]), { code: 'invalid_message', details: { path: 'options' } });
    assert.equal(page.native.posted.length, 0);
    assert.deepEqual(navigator.calls, []);
  }
});
