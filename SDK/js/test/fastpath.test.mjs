// The Promise-reply fast path: a script message handler "with reply" answers
// postMessage with a Promise that resolves to the response object.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

test('a Promise reply resolves the call without _handleResponse', async () => {
  const page = createPage({ mode: 'promise' });
  const result = page.PWAKit.call('platform', 'getInfo');
  const id = page.native.last.id;
  page.native.reply(id, { id, success: true, data: { platform: 'linux' } });
  assert.deepEqual(plain(await result), { platform: 'linux' });
  assert.equal(page.PWAKit.inFlight, 0);
  assert.equal(page.clock.scheduled, 0);
});

test('a Promise reply carrying an error rejects with its code and details', async () => {
  const page = createPage({ mode: 'promise' });
  const result = page.PWAKit.call('clipboard', 'write', { text: 1 });
  const id = page.native.last.id;
  page.native.reply(id, {
    id, success: false, error: 'text must be a string', code: 'invalid_payload', details: { path: 'payload.text' }
  });
  await rejectsWith(result, { code: 'invalid_payload', details: { path: 'payload.text' }, action: 'write' });
});

test('a response arriving both ways resolves once (script first)', async () => {
  const page = createPage({ mode: 'promise' });
  const diagnostics = page.watchDiagnostics();
  const result = track(page.PWAKit.call('m', 'a'));
  const id = page.native.last.id;
  assert.equal(page.succeed(id, 'by script'), true);
  page.native.reply(id, { id, success: true, data: 'by promise' });
  await flush();
  assert.equal(result.value, 'by script');
  assert.deepEqual(diagnostics.map((d) => d.kind), ['late_response']);
});

test('a response arriving both ways resolves once (Promise first)', async () => {
  const page = createPage({ mode: 'promise' });
  const result = track(page.PWAKit.call('m', 'a'));
  const id = page.native.last.id;
  page.native.reply(id, { id, success: true, data: 'by promise' });
  await flush();
  assert.equal(page.succeed(id, 'by script'), false);
  await flush();
  assert.equal(result.value, 'by promise');
});

test('a Promise that resolves to undefined leaves the answer to _handleResponse', async () => {
  const page = createPage({ mode: 'promise-undefined' });
  const result = track(page.PWAKit.call('m', 'a'));
  await flush();
  assert.equal(result.state, 'pending');
  page.succeed(page.native.last.id, 'by script');
  await flush();
  assert.equal(result.value, 'by script');
});

test('a Promise reply may be a JSON string or omit the id', async () => {
  const page = createPage({ mode: 'promise' });
  const first = page.PWAKit.call('m', 'a');
  const firstId = page.native.last.id;
  page.native.reply(firstId, JSON.stringify({ id: firstId, success: true, data: 1 }));
  assert.equal(await first, 1);
  const second = page.PWAKit.call('m', 'b');
  page.native.reply(page.native.last.id, { success: true, data: 2 });
  assert.equal(await second, 2);
});

test('a Promise reply naming another call is not used for this one', async () => {
  const page = createPage({ mode: 'promise' });
  const diagnostics = page.watchDiagnostics();
  const a = track(page.PWAKit.call('m', 'a'));
  const b = track(page.PWAKit.call('m', 'b'));
  const [idA, idB] = page.native.calls.map((m) => m.id);
  page.native.reply(idA, { id: idB, success: true, data: 'wrong' });
  await flush();
  assert.equal(a.state, 'pending');
  assert.equal(b.state, 'pending');
  assert.deepEqual(diagnostics.map((d) => d.kind), ['mismatched_reply']);
  page.succeed(idA, 'right');
  page.succeed(idB, 'right too');
  await flush();
  assert.equal(a.value, 'right');
  assert.equal(b.value, 'right too');
});

test('a malformed Promise reply is reported and leaves the call to the other path', async () => {
  const page = createPage({ mode: 'promise' });
  const diagnostics = page.watchDiagnostics();
  const result = track(page.PWAKit.call('m', 'a'));
  const id = page.native.last.id;
  page.native.reply(id, 'not json');
  await flush();
  assert.equal(result.state, 'pending');
  assert.deepEqual(diagnostics.map((d) => d.kind), ['malformed_reply']);
  page.succeed(id, 'fine');
  await flush();
  assert.equal(result.value, 'fine');
});

test('a Promise reply that is not an object is treated like any malformed response', async () => {
  const page = createPage({ mode: 'promise' });
  const diagnostics = page.watchDiagnostics();
  const result = track(page.PWAKit.call('m', 'a'));
  page.native.reply(page.native.last.id, 17);
  await flush();
  assert.equal(result.state, 'pending');
  assert.deepEqual(diagnostics.map((d) => d.kind), ['malformed_response']);
});

test('a rejected Promise reply rejects the call with module_error or the code it carries', async () => {
  const page = createPage({ mode: 'promise' });
  const a = page.PWAKit.call('m', 'a');
  page.native.rejectReply(page.native.last.id, new Error('handler failed'));
  await rejectsWith(a, { code: 'module_error', message: /handler failed/ });
  const b = page.PWAKit.call('m', 'b');
  page.native.rejectReply(page.native.last.id, Object.assign(new Error('big'), { code: 'payload_too_large' }));
  await rejectsWith(b, { code: 'payload_too_large', message: /big/ });
  const c = page.PWAKit.call('m', 'c');
  page.native.rejectReply(page.native.last.id, 'plain text');
  await rejectsWith(c, { code: 'module_error', message: /plain text/ });
  assert.equal(page.PWAKit.inFlight, 0);
});

test('a Promise reply after a timeout is ignored', async () => {
  const page = createPage({ mode: 'promise' });
  const result = track(page.PWAKit.call('m', 'a', undefined, { timeout: 20 }));
  const id = page.native.last.id;
  page.clock.advance(20);
  page.native.reply(id, { id, success: true, data: 'late' });
  await flush();
  assert.equal(result.value.code, 'timeout');
  assert.deepEqual(page.native.cancels.map((m) => m.id), [id]);
});

test('many fast-path calls answered in reverse order each get their own answer', async () => {
  const page = createPage({ mode: 'promise' });
  const results = [];
  for (let i = 0; i < 200; i++) results.push(page.PWAKit.call('echo', 'n', i));
  for (const message of page.native.calls.slice().reverse()) {
    page.native.reply(message.id, { id: message.id, success: true, data: message.payload });
  }
  assert.deepEqual(plain(await Promise.all(results)), [...Array(200).keys()]);
});
