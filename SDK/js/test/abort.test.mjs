import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, rejectsWith, track } from '../test-support/harness.mjs';

test('an already aborted signal rejects with cancelled and posts nothing', async () => {
  const page = createPage();
  const controller = new AbortController();
  const reason = new Error('user left');
  controller.abort(reason);
  const error = await rejectsWith(page.PWAKit.call('m', 'a', { x: 1 }, { signal: controller.signal }), {
    code: 'cancelled', module: 'm', action: 'a'
  });
  assert.equal(error.cause, reason);
  assert.equal(page.native.posted.length, 0);
  assert.equal(page.clock.scheduled, 0);
  assert.equal(page.PWAKit.inFlight, 0);
});

test('aborting during a call rejects it and sends a cancel message', async () => {
  const page = createPage();
  const controller = new AbortController();
  const result = track(page.PWAKit.call('share', 'share', { text: 'hi' }, { signal: controller.signal }));
  const id = page.native.last.id;
  await flush();
  assert.equal(result.state, 'pending');
  controller.abort();
  await flush();
  assert.equal(result.state, 'rejected');
  assert.equal(result.value.code, 'cancelled');
  assert.equal(result.value.id, id);
  assert.equal(result.value.cause, controller.signal.reason);
  assert.deepEqual(page.native.cancels.map((m) => m.id), [id]);
  assert.equal(page.clock.scheduled, 0, 'the timeout timer is cleared on abort');
  assert.equal(page.succeed(id, 'late'), false, 'a response after the abort is ignored');
});

test('an abort after the call finished changes nothing and sends no cancel', async () => {
  const page = createPage();
  const controller = new AbortController();
  const result = page.PWAKit.call('m', 'a', undefined, { signal: controller.signal });
  page.succeed(page.native.last.id, 'done');
  assert.equal(await result, 'done');
  controller.abort();
  await flush();
  assert.equal(page.native.cancels.length, 0);
});

test('the abort listener is removed when the call settles', async () => {
  const page = createPage();
  let added = 0;
  let removed = 0;
  const controller = new AbortController();
  const signal = controller.signal;
  const add = signal.addEventListener.bind(signal);
  const remove = signal.removeEventListener.bind(signal);
  signal.addEventListener = (...args) => { added += 1; add(...args); };
  signal.removeEventListener = (...args) => { removed += 1; remove(...args); };
  const first = page.PWAKit.call('m', 'a', undefined, { signal });
  page.succeed(page.native.last.id, 1);
  await first;
  const second = page.PWAKit.call('m', 'b', undefined, { signal, timeout: 5 });
  page.clock.advance(5);
  await rejectsWith(second, { code: 'timeout' });
  assert.equal(added, 2);
  assert.equal(removed, 2);
});

test('one signal aborts every call that uses it', async () => {
  const page = createPage();
  const controller = new AbortController();
  const calls = [1, 2, 3].map((n) => track(page.PWAKit.call('m', 'a', n, { signal: controller.signal })));
  const other = track(page.PWAKit.call('m', 'other'));
  controller.abort();
  await flush();
  assert.deepEqual(calls.map((c) => c.value.code), ['cancelled', 'cancelled', 'cancelled']);
  assert.equal(other.state, 'pending');
  assert.equal(page.native.cancels.length, 3);
});

test('an AbortSignal.timeout reason is reported with the timeout code', async () => {
  const page = createPage();
  const controller = new AbortController();
  const result = track(page.PWAKit.call('m', 'a', undefined, { signal: controller.signal }));
  controller.abort(new DOMException('signal timed out', 'TimeoutError'));
  await flush();
  assert.equal(result.value.code, 'timeout');
  assert.equal(result.value.cause.name, 'TimeoutError');
  assert.equal(page.native.cancels.length, 1);
});

test('a signal aborted inside postMessage still cancels the call', async () => {
  const page = createPage();
  const controller = new AbortController();
  page.native.onPost = (message) => {
    if (!message.cancel) controller.abort();
  };
  await rejectsWith(page.PWAKit.call('m', 'a', undefined, { signal: controller.signal }), { code: 'cancelled' });
  assert.equal(page.native.cancels.length, 1);
});
