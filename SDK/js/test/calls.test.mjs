import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

test('a call posts the wire message and resolves with the data', async () => {
  const page = createPage();
  const result = page.PWAKit.call('platform', 'getInfo', { verbose: true });
  const message = page.native.last;
  assert.equal(typeof message.id, 'string');
  assert.ok(message.id.length > 0);
  assert.deepEqual(plain(message), {
    id: message.id,
    module: 'platform',
    action: 'getInfo',
    payload: { verbose: true },
    timeoutMs: 30000
  });
  assert.equal(page.succeed(message.id, { platform: 'linux', isNative: true }), true);
  assert.deepEqual(plain(await result), { platform: 'linux', isNative: true });
  assert.equal(page.PWAKit.inFlight, 0);
  assert.equal(page.clock.scheduled, 0, 'the timeout timer is cleared on success');
});

test('a call without payload omits the payload key', async () => {
  const page = createPage();
  const result = page.PWAKit.call('haptics', 'selection');
  const message = page.native.last;
  assert.equal(Object.prototype.hasOwnProperty.call(message, 'payload'), false);
  page.succeed(message.id);
  assert.equal(await result, undefined);
});

test('null and falsy payloads are sent as they are', async () => {
  const page = createPage();
  for (const payload of [null, 0, false, '', []]) {
    const result = page.PWAKit.call('echo', 'value', payload);
    assert.deepEqual(plain(page.native.last.payload), payload);
    page.succeed(page.native.last.id, page.native.last.payload);
    assert.deepEqual(plain(await result), payload);
  }
});

test('the posted payload is the JSON form of what the page passed', async () => {
  const page = createPage();
  const when = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
  const result = track(page.PWAKit.call('notifications', 'schedule', {
    at: when,
    skip: undefined,
    fn: () => 1,
    nested: { keep: 1, drop: undefined }
  }));
  assert.deepEqual(plain(page.native.last.payload), {
    at: '2026-01-02T03:04:05.000Z',
    nested: { keep: 1 }
  });
  page.succeed(page.native.last.id, true);
  await flush();
  assert.equal(result.state, 'fulfilled');
});

test('an error response rejects with a PWAKitError carrying code, details, module and action', async () => {
  const page = createPage();
  const result = page.PWAKit.call('notifications', 'schedule', { trigger: { seconds: -1 } });
  const id = page.native.last.id;
  page.failWith(id, 'invalid_payload', 'seconds must be positive', { path: 'payload.trigger.seconds' });
  const error = await rejectsWith(result, {
    code: 'invalid_payload',
    message: 'seconds must be positive',
    details: { path: 'payload.trigger.seconds' },
    module: 'notifications',
    action: 'schedule',
    id
  });
  assert.ok(error instanceof page.PWAKit.PWAKitError);
  assert.ok(error instanceof page.eval('Error'), 'PWAKitError extends Error');
  assert.deepEqual(plain(error.toJSON()), {
    name: 'PWAKitError',
    code: 'invalid_payload',
    message: 'seconds must be positive',
    details: { path: 'payload.trigger.seconds' },
    module: 'notifications',
    action: 'schedule',
    id
  });
});

test('namespaced module codes pass through unchanged', async () => {
  const page = createPage();
  const result = page.PWAKit.call('biometrics', 'authenticate', { reason: 'Unlock' });
  page.failWith(page.native.last.id, 'biometrics.lockout', 'Too many attempts');
  await rejectsWith(result, { code: 'biometrics.lockout', message: 'Too many attempts' });
});

test('a seed-style error without code or message still rejects with defaults', async () => {
  const page = createPage();
  const a = page.PWAKit.call('haptics', 'impact');
  page.respond({ id: page.native.last.id, success: false, error: 'Unknown action' });
  await rejectsWith(a, { code: 'module_error', message: 'Unknown action', details: undefined });

  const b = page.PWAKit.call('haptics', 'impact');
  page.respond({ id: page.native.last.id, success: false, error: 42, code: 7, details: 'nope' });
  await rejectsWith(b, { code: 'module_error', message: 'haptics.impact failed', details: undefined });

  const c = page.PWAKit.call('haptics', 'impact');
  page.respond({ id: page.native.last.id, success: false, error: '', code: '', details: [1] });
  await rejectsWith(c, { code: 'module_error', message: 'haptics.impact failed', details: undefined });
});

test('ids are unique across many calls and use crypto.randomUUID when present', async () => {
  const page = createPage();
  const results = [];
  for (let i = 0; i < 500; i++) results.push(page.PWAKit.call('m', 'a', i));
  const ids = page.native.calls.map((m) => m.id);
  assert.equal(new Set(ids).size, 500);
  for (const id of ids) assert.match(id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  page.native.calls.forEach((m) => page.succeed(m.id, m.payload));
  assert.deepEqual(plain(await Promise.all(results)), [...Array(500).keys()]);
});

test('ids fall back to a counter plus a random token without crypto', async () => {
  const first = createPage({ crypto: false });
  const second = createPage({ crypto: false });
  const calls = [];
  for (let i = 0; i < 50; i++) calls.push(track(first.PWAKit.call('m', 'a')));
  calls.push(track(second.PWAKit.call('m', 'a')));
  const ids = first.native.calls.map((m) => m.id);
  assert.equal(new Set(ids).size, 50);
  for (const id of ids) assert.match(id, /^pwk-[0-9a-z]+-[0-9a-z]+$/);
  const prefix = (id) => id.split('-')[1];
  assert.notEqual(prefix(ids[0]), prefix(second.native.last.id), 'two pages draw different tokens');
});

test('responses that arrive out of order settle the right calls', async () => {
  const page = createPage();
  const calls = ['a', 'b', 'c', 'd'].map((name) => page.PWAKit.call('m', name, name));
  const messages = page.native.calls;
  page.succeed(messages[2].id, 'c!');
  page.failWith(messages[0].id, 'm.bad', 'a failed');
  page.succeed(messages[3].id, 'd!');
  page.succeed(messages[1].id, 'b!');
  await rejectsWith(calls[0], { code: 'm.bad', action: 'a' });
  assert.equal(await calls[1], 'b!');
  assert.equal(await calls[2], 'c!');
  assert.equal(await calls[3], 'd!');
});

test('a response delivered synchronously inside postMessage resolves the call', async () => {
  const page = createPage();
  page.native.onPost = (message) => page.succeed(message.id, 'immediate');
  assert.equal(await page.PWAKit.call('m', 'a'), 'immediate');
  assert.equal(page.PWAKit.inFlight, 0);
});

test('a response may be a JSON string', async () => {
  const page = createPage();
  const result = page.PWAKit.call('m', 'a');
  const id = page.native.last.id;
  assert.equal(page.respond(JSON.stringify({ id, success: true, data: { n: 1 } })), true);
  assert.deepEqual(plain(await result), { n: 1 });
});

test('one thousand concurrent calls each resolve exactly once with their own data', async () => {
  const page = createPage();
  const results = [];
  for (let i = 0; i < 1000; i++) results.push(page.PWAKit.call('echo', 'n', { n: i }));
  assert.equal(page.PWAKit.inFlight, 1000);
  const messages = page.native.calls.slice().reverse();
  for (const message of messages) {
    assert.equal(page.succeed(message.id, message.payload.n), true);
    assert.equal(page.succeed(message.id, -1), false, 'a second answer is ignored');
  }
  const values = await Promise.all(results);
  assert.deepEqual(plain(values), [...Array(1000).keys()]);
  assert.equal(page.PWAKit.inFlight, 0);
  assert.equal(page.clock.scheduled, 0);
});

test('invalid module, action and options reject before anything is posted', async () => {
  const page = createPage();
  const { PWAKit } = page;
  await rejectsWith(PWAKit.call('', 'a'), { code: 'invalid_message', details: { path: 'module' } });
  await rejectsWith(PWAKit.call(undefined, 'a'), { code: 'invalid_message', details: { path: 'module' } });
  await rejectsWith(PWAKit.call({}, 'a'), { code: 'invalid_message', details: { path: 'module' } });
  await rejectsWith(PWAKit.call('m', 3), { code: 'invalid_message', details: { path: 'action' } });
  await rejectsWith(PWAKit.call('m', ''), { code: 'invalid_message', details: { path: 'action' } });
  await rejectsWith(PWAKit.call('m', 'a', null, 5), { code: 'invalid_message', details: { path: 'options' } });
  await rejectsWith(PWAKit.call('m', 'a', null, []), { code: 'invalid_message', details: { path: 'options' } });
  // The native side refuses a timeoutMs over one day, so the SDK does too.
  for (const timeout of [0, -1, NaN, Infinity, '100', 86400001, 2 ** 31]) {
    await rejectsWith(PWAKit.call('m', 'a', null, { timeout }), {
      code: 'invalid_message', details: { path: 'options.timeout' }, message: /options\.timeout/
    });
  }
  await rejectsWith(PWAKit.call('m', 'a', null, { signal: {} }), {
    code: 'invalid_message', details: { path: 'options.signal' }
  });
  // Getters that throw are refused as the option they guard, not thrown through.
  await rejectsWith(PWAKit.call('m', 'a', null, { get timeout() { throw new Error('boom'); } }), {
    code: 'invalid_message', details: { path: 'options.timeout' }
  });
  await rejectsWith(PWAKit.call('m', 'a', null, { get signal() { throw new Error('boom'); } }), {
    code: 'invalid_message', details: { path: 'options.signal' }
  });
  await rejectsWith(PWAKit.call('m', 'a', null, { signal: { get aborted() { throw new Error('boom'); } } }), {
    code: 'invalid_message', details: { path: 'options.signal' }
  });
  assert.equal(page.native.posted.length, 0);
  assert.equal(page.clock.scheduled, 0);
});

test('a timeout of exactly one day is the longest accepted and is sent as timeoutMs', async () => {
  const page = createPage();
  track(page.PWAKit.call('m', 'a', null, { timeout: 86400000 }));
  assert.equal(page.native.last.timeoutMs, 86400000);
});

test('a postMessage that throws rejects the call and leaves nothing pending', async () => {
  const page = createPage();
  page.native.onPost = () => {
    const error = new Error('The object can not be cloned.');
    error.name = 'DataCloneError';
    throw error;
  };
  await rejectsWith(page.PWAKit.call('m', 'a', { x: 1 }), {
    code: 'invalid_payload', details: { path: 'payload' }, message: /can not be cloned/
  });
  page.native.onPost = () => { throw new TypeError('handler gone'); };
  await rejectsWith(page.PWAKit.call('m', 'a'), { code: 'invalid_message', message: /handler gone/ });
  assert.equal(page.PWAKit.inFlight, 0);
  assert.equal(page.clock.scheduled, 0);
});

test('the message handler is looked up at call time', async () => {
  const page = createPage({ native: false });
  assert.equal(page.PWAKit.isNative, false);
  await rejectsWith(page.PWAKit.call('m', 'a'), { code: 'unavailable' });
  page.window.webkit = { messageHandlers: { pwakit: page.native.handler } };
  assert.equal(page.PWAKit.isNative, true);
  const result = page.PWAKit.call('m', 'a');
  page.succeed(page.native.last.id, 'late bridge');
  assert.equal(await result, 'late bridge');
});

test('ready() calls lifecycle.ready and resolves with the acknowledgement', async () => {
  const page = createPage();
  const result = page.PWAKit.ready();
  const message = page.native.last;
  assert.equal(message.module, 'lifecycle');
  assert.equal(message.action, 'ready');
  assert.equal(message.payload, undefined);
  page.succeed(message.id, { acknowledged: true });
  assert.deepEqual(plain(await result), { acknowledged: true });
});
