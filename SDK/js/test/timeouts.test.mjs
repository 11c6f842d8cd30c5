import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

test('a call times out after the default 30 s and sends a cancel message', async () => {
  const page = createPage();
  const result = track(page.PWAKit.call('slow', 'wait'));
  const id = page.native.last.id;
  page.clock.advance(29999);
  await flush();
  assert.equal(result.state, 'pending');
  assert.equal(page.native.cancels.length, 0);
  page.clock.advance(1);
  await flush();
  assert.equal(result.state, 'rejected');
  assert.equal(result.value.code, 'timeout');
  assert.equal(result.value.module, 'slow');
  assert.equal(result.value.action, 'wait');
  assert.equal(result.value.id, id);
  assert.deepEqual(plain(result.value.details), { timeoutMs: 30000 });
  assert.match(result.value.message, /slow\.wait timed out after 30000 ms/);
  assert.deepEqual(plain(page.native.cancels), [{ id, cancel: true }]);
  assert.equal(page.PWAKit.inFlight, 0);
});

test('a per-call timeout is used and sent to the native side as timeoutMs', async () => {
  const page = createPage();
  const result = track(page.PWAKit.call('slow', 'wait', undefined, { timeout: 250 }));
  assert.equal(page.native.last.timeoutMs, 250);
  page.clock.advance(249);
  await flush();
  assert.equal(result.state, 'pending');
  page.clock.advance(1);
  await flush();
  assert.equal(result.value.code, 'timeout');
  assert.equal(page.native.cancels.length, 1);
});

test('fractional timeouts are rounded up to whole milliseconds', async () => {
  const page = createPage();
  track(page.PWAKit.call('m', 'a', undefined, { timeout: 10.2 }));
  assert.equal(page.native.last.timeoutMs, 11);
});

test('configure changes the default timeout for later calls only', async () => {
  const page = createPage();
  const before = track(page.PWAKit.call('m', 'before'));
  const config = page.PWAKit.configure({ defaultTimeout: 1000 });
  assert.equal(config.defaultTimeout, 1000);
  const after = track(page.PWAKit.call('m', 'after'));
  assert.deepEqual(page.native.calls.map((m) => m.timeoutMs), [30000, 1000]);
  page.clock.advance(1000);
  await flush();
  assert.equal(after.value.code, 'timeout');
  assert.equal(before.state, 'pending');
  page.clock.advance(29000);
  await flush();
  assert.equal(before.value.code, 'timeout');
});

test('a response after the timeout is ignored and reported as late', async () => {
  const page = createPage();
  const diagnostics = page.watchDiagnostics();
  const result = track(page.PWAKit.call('m', 'a', undefined, { timeout: 10 }));
  const id = page.native.last.id;
  page.clock.advance(10);
  await flush();
  assert.equal(page.succeed(id, 'too late'), false);
  await flush();
  assert.equal(result.value.code, 'timeout');
  assert.deepEqual(diagnostics.map((d) => d.kind), ['late_response']);
  assert.equal(diagnostics[0].id, id);
});

test('an answered call sends no cancel when its time would have run out', async () => {
  const page = createPage();
  const result = page.PWAKit.call('m', 'a', undefined, { timeout: 10 });
  page.succeed(page.native.last.id, 1);
  assert.equal(await result, 1);
  page.clock.advance(1000);
  assert.equal(page.native.cancels.length, 0);
});

test('timeouts of several calls fire independently', async () => {
  const page = createPage();
  const fast = track(page.PWAKit.call('m', 'fast', undefined, { timeout: 100 }));
  const slow = track(page.PWAKit.call('m', 'slow', undefined, { timeout: 300 }));
  const answered = track(page.PWAKit.call('m', 'answered', undefined, { timeout: 200 }));
  const ids = page.native.calls.map((m) => m.id);
  page.clock.advance(150);
  page.succeed(ids[2], 'ok');
  page.clock.advance(200);
  await flush();
  assert.equal(fast.value.code, 'timeout');
  assert.equal(slow.value.code, 'timeout');
  assert.equal(answered.value, 'ok');
  assert.deepEqual(page.native.cancels.map((m) => m.id), [ids[0], ids[1]]);
});

test('a cancel message that the handler refuses does not disturb the rejection', async () => {
  const page = createPage();
  const diagnostics = page.watchDiagnostics();
  const result = page.PWAKit.call('m', 'a', undefined, { timeout: 5 });
  page.native.onPost = (message) => {
    if (message.cancel) throw new Error('handler closed');
  };
  page.clock.advance(5);
  await rejectsWith(result, { code: 'timeout' });
  assert.deepEqual(diagnostics.map((d) => d.kind), ['cancel_failed']);
});

test('invalid configure options are refused with the option named', () => {
  const page = createPage();
  const { PWAKit } = page;
  assert.throws(() => PWAKit.configure({ defaultTimeout: 0 }), /defaultTimeout/);
  assert.throws(() => PWAKit.configure({ defaultTimeout: 'soon' }), /defaultTimeout/);
  assert.throws(() => PWAKit.configure({ defaultTimeout: 2 ** 31 }), /defaultTimeout/);
  assert.throws(() => PWAKit.configure({ defaultTimeout: 86400001 }), /defaultTimeout/);
  assert.throws(() => PWAKit.configure({ maxMessageBytes: 1.5 }), /maxMessageBytes/);
  assert.throws(() => PWAKit.configure({ maxMessageBytes: 0 }), /maxMessageBytes/);
  assert.throws(() => PWAKit.configure({ onDiagnostic: 'log' }), /onDiagnostic/);
  assert.throws(() => PWAKit.configure('fast'), /options must be an object/);
  // A refused option changes nothing, including the valid options beside it.
  assert.throws(() => PWAKit.configure({ defaultTimeout: 5, maxMessageBytes: -1 }), /maxMessageBytes/);
  const config = PWAKit.configure();
  assert.equal(config.defaultTimeout, 30000);
  assert.equal(config.maxMessageBytes, 1048576);
  assert.equal(config.onDiagnostic, null);
});
