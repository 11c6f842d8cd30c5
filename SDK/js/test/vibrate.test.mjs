// PWAKit.vibrate: vibration.vibrate inside a host, navigator.vibrate outside one,
// `unavailable` with neither; patterns are read the way the Vibration API reads them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, plain, rejectsWith } from '../test-support/harness.mjs';

/** A navigator whose vibrate records the patterns it got and answers `answer`. */
function fakeNavigator(answer = true) {
  const patterns = [];
  return { patterns, vibrate(pattern) { patterns.push(plain(pattern)); return answer; } };
}

test('in a host vibrate posts vibration.vibrate with the pattern and resolves with vibrated', async () => {
  const page = createPage();
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  const result = page.PWAKit.vibrate([200, 100, 200]);
  const message = page.native.last;
  assert.deepEqual(plain(message), {
    id: message.id, module: 'vibration', action: 'vibrate', payload: { pattern: [200, 100, 200] }, timeoutMs: 30000
  });
  page.succeed(message.id, { vibrated: true });
  assert.equal(await result, true);
  assert.deepEqual(navigator.patterns, [], 'the Web API is not used inside a host');

  const declined = page.PWAKit.vibrate(50);
  page.succeed(page.native.last.id, { vibrated: false });
  assert.equal(await declined, false);
});

test('a single number becomes [n]; 0 and [] stop; durations are whole, capped ms', async () => {
  const page = createPage();
  const cases = [
    [300, [300]],
    [0, [0]],
    [[], []],
    [[0], [0]],
    [12.9, [12]],
    [[1.5, 0.2, 99999], [1, 0, 10000]],
    [1e300, [10000]]
  ];
  for (const [pattern, sent] of cases) {
    const result = page.PWAKit.vibrate(pattern);
    assert.deepEqual(plain(page.native.last.payload), { pattern: sent }, `pattern ${JSON.stringify(pattern)}`);
    page.succeed(page.native.last.id, { vibrated: true });
    assert.equal(await result, true);
  }
});

test('a long pattern is cut to 100 entries, and only those are read', async () => {
  const page = createPage();
  const long = new Array(1e9);
  for (let i = 0; i < 100; i++) long[i] = i;
  const result = page.PWAKit.vibrate(long);
  assert.deepEqual(plain(page.native.last.payload.pattern), [...Array(100).keys()]);
  page.succeed(page.native.last.id, { vibrated: true });
  assert.equal(await result, true);
});

test('the native answer is final: unavailable (the app turned vibration off) does not fall back', async () => {
  const page = createPage();
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  const result = page.PWAKit.vibrate(100);
  page.failWith(page.native.last.id, 'unavailable', 'vibration is turned off');
  await rejectsWith(result, { code: 'unavailable', module: 'vibration', action: 'vibrate' });
  assert.deepEqual(navigator.patterns, []);
});

test('a malformed native answer rejects with invalid_message naming what is wrong', async () => {
  const page = createPage();
  const cases = [[undefined, 'data'], [null, 'data'], [true, 'data'], [[true], 'data'],
    [{ vibrated: 'yes' }, 'data.vibrated'], [{}, 'data.vibrated']];
  for (const [data, path] of cases) {
    const result = page.PWAKit.vibrate(1);
    page.succeed(page.native.last.id, data);
    await rejectsWith(result, { code: 'invalid_message', module: 'vibration', action: 'vibrate', details: { path } });
  }
});

test('outside a host vibrate uses navigator.vibrate with the same normalised pattern', async () => {
  const page = createPage({ native: false });
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  assert.equal(await page.PWAKit.vibrate([10.7, 20]), true);
  assert.equal(await page.PWAKit.vibrate(0), true);
  assert.deepEqual(navigator.patterns, [[10, 20], [0]]);
  page.window.navigator = fakeNavigator(false);
  assert.equal(await page.PWAKit.vibrate(5), false, 'a browser that declines answers false');
  page.window.navigator = { vibrate: () => 'truthy' };
  assert.equal(await page.PWAKit.vibrate(5), false, 'only a true answer is true');
});

test('a navigator.vibrate that throws rejects with a PWAKitError carrying the cause', async () => {
  const page = createPage({ native: false });
  const boom = new Error('no vibrator');
  page.window.navigator = { vibrate() { throw boom; } };
  const error = await rejectsWith(page.PWAKit.vibrate(5), { code: 'module_error', module: 'vibration' });
  assert.equal(error.cause, boom);
  assert.match(error.message, /navigator\.vibrate failed: no vibrator/);
});

test('with neither a host nor navigator.vibrate vibrate rejects with unavailable', async () => {
  for (const navigator of [undefined, null, {}, { vibrate: true }, { get vibrate() { throw new Error('hostile'); } }]) {
    const page = createPage({ native: false });
    if (navigator !== undefined) page.window.navigator = navigator;
    await rejectsWith(page.PWAKit.vibrate(5), {
      code: 'unavailable', module: 'vibration', action: 'vibrate', message: /navigator\.vibrate/
    });
  }
  const page = createPage({ native: false });
  Object.defineProperty(page.window, 'navigator', { get() { throw new Error('hostile'); } });
  await rejectsWith(page.PWAKit.vibrate(5), { code: 'unavailable' });
});

test('invalid patterns are refused with invalid_payload at payload.pattern on every path', async () => {
  const throwing = [1, 2];
  Object.defineProperty(throwing, 1, { get() { throw new Error('boom'); } });
  const hostileLength = new Proxy([1], { get(target, key) { if (key === 'length') throw new Error('boom'); return target[key]; } });
  const lyingLength = new Proxy([1], { get(target, key) { return key === 'length' ? 'many' : target[key]; } });
  const invalid = [
    ['100', undefined], [NaN, undefined], [-1, undefined], [Infinity, undefined], [-0.5, undefined],
    [null, undefined], [undefined, undefined], [{}, undefined], [{ length: 1, 0: 5 }, undefined],
    [1n, undefined], [() => 1, undefined], [Symbol('x'), undefined],
    [[1, '2'], 1], [[1, -1], 1], [[, 1], 0], [[1, NaN], 1], [[[1]], 0], [[1, null], 1],
    [throwing, 1], [hostileLength, undefined], [lyingLength, undefined]
  ];
  for (const native of [true, false]) {
    for (const withNavigator of [true, false]) {
      const page = createPage({ native });
      const navigator = fakeNavigator();
      if (withNavigator) page.window.navigator = navigator;
      for (const [n, [pattern, index]] of invalid.entries()) {
        const error = await rejectsWith(page.PWAKit.vibrate(pattern), {
          code: 'invalid_payload', module: 'vibration', action: 'vibrate'
        });
        assert.equal(error.details.path, 'payload.pattern');
        assert.equal(error.details.index, index, `index for invalid pattern #${n}`);
      }
      assert.equal(page.native.posted.length, 0);
      assert.deepEqual(navigator.patterns, []);
    }
  }
});

test('options are checked, and an aborted signal stops vibrate before anything happens', async () => {
  for (const native of [true, false]) {
    const page = createPage({ native });
    const navigator = fakeNavigator();
    page.window.navigator = navigator;
    await rejectsWith(page.PWAKit.vibrate(5, { timeout: 'soon' }), {
      code: 'invalid_message', module: 'vibration', details: { path: 'options.timeout' }
    });
    await rejectsWith(page.PWAKit.vibrate(5, 'options'), { code: 'invalid_message', details: { path: 'options' } });
    const controller = new AbortController();
    controller.abort();
    await rejectsWith(page.PWAKit.vibrate(5, { signal: controller.signal }), { code: 'cancelled', module: 'vibration' });
    assert.equal(page.native.posted.length, 0);
    assert.deepEqual(navigator.patterns, []);
  }
  const page = createPage();
  const result = page.PWAKit.vibrate(5, { timeout: 1234 });
  assert.equal(page.native.last.timeoutMs, 1234);
  page.succeed(page.native.last.id, { vibrated: true });
  assert.equal(await result, true);
});
