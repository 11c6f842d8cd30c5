import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

test('a response for an id the page never sent is ignored and reported', async () => {
  const page = createPage();
  const diagnostics = page.watchDiagnostics();
  const mine = track(page.PWAKit.call('m', 'a'));
  assert.equal(page.succeed('not-mine', 'x'), false);
  assert.equal(page.failWith('also-not-mine', 'timeout', 'x'), false);
  await flush();
  assert.equal(mine.state, 'pending');
  assert.deepEqual(diagnostics.map((d) => [d.kind, d.id]), [
    ['unknown_id', 'not-mine'],
    ['unknown_id', 'also-not-mine']
  ]);
  assert.equal(plain(diagnostics[0].value).data, 'x', 'the diagnostic carries the response');
});

test('duplicate responses resolve a call once; the rest are reported late', async () => {
  const page = createPage();
  const diagnostics = page.watchDiagnostics();
  const result = track(page.PWAKit.call('m', 'a'));
  const id = page.native.last.id;
  assert.equal(page.succeed(id, 'first'), true);
  assert.equal(page.succeed(id, 'second'), false);
  assert.equal(page.failWith(id, 'module_error', 'third'), false);
  await flush();
  assert.equal(result.state, 'fulfilled');
  assert.equal(result.value, 'first');
  assert.deepEqual(diagnostics.map((d) => d.kind), ['late_response', 'late_response']);
});

test('an error followed by a success for the same id stays rejected', async () => {
  const page = createPage();
  const result = page.PWAKit.call('m', 'a');
  const id = page.native.last.id;
  page.failWith(id, 'm.first', 'first answer wins');
  page.succeed(id, 'ignored');
  await rejectsWith(result, { code: 'm.first' });
});

const malformedWithoutUsableId = [
  ['undefined', undefined],
  ['null', null],
  ['a number', 42],
  ['NaN', NaN],
  ['a boolean', true],
  ['a symbol', Symbol('x')],
  ['a function', () => ({ id: 'x', success: true })],
  ['an array', [{ id: 'x', success: true }]],
  ['a string that is not JSON', '{id: nope'],
  ['a JSON string of null', 'null'],
  ['a JSON string of an array', '[1,2]'],
  ['an empty object', {}],
  ['a numeric id', { id: 1, success: true }],
  ['an empty id', { id: '', success: true }],
  ['an object id', { id: { toString: () => 'x' }, success: true }],
  ['an array id', { id: ['x'], success: true }],
  ['a null prototype object without id', Object.create(null)],
  ['a huge string', 'x'.repeat(1 << 20)]
];

for (const [name, value] of malformedWithoutUsableId) {
  test(`a malformed response (${name}) never throws and settles nothing`, async () => {
    const page = createPage();
    const diagnostics = page.watchDiagnostics();
    const pending = track(page.PWAKit.call('m', 'a'));
    let returned;
    assert.doesNotThrow(() => { returned = page.respond(value); });
    assert.equal(returned, false);
    await flush();
    assert.equal(pending.state, 'pending');
    assert.equal(page.PWAKit.inFlight, 1);
    assert.equal(diagnostics.length, 1);
    assert.equal(diagnostics[0].kind, 'malformed_response');
    assert.equal(typeof diagnostics[0].message, 'string');
  });
}

const malformedSuccess = [
  ['missing', undefined],
  ['a string', 'true'],
  ['a number', 1],
  ['null', null],
  ['an object', { ok: true }]
];

for (const [name, success] of malformedSuccess) {
  test(`a response for a pending id whose success is ${name} rejects with invalid_message`, async () => {
    const page = createPage();
    const result = page.PWAKit.call('m', 'a');
    const id = page.native.last.id;
    const response = { id, data: 'x' };
    if (success !== undefined) response.success = success;
    assert.equal(page.respond(response), true);
    await rejectsWith(result, { code: 'invalid_message', details: { path: 'success' }, id });
    assert.equal(page.succeed(id, 'x'), false, 'later answers are late');
  });
}

test('hostile responses (throwing getters, proxies) never throw out of _handleResponse', async () => {
  const page = createPage();
  const diagnostics = page.watchDiagnostics();
  const pending = track(page.PWAKit.call('m', 'a'));
  const id = page.native.last.id;
  const throwingId = {};
  Object.defineProperty(throwingId, 'id', { get() { throw new Error('boom'); } });
  const throwingSuccess = { id };
  Object.defineProperty(throwingSuccess, 'success', { get() { throw new Error('boom'); } });
  const trap = () => { throw new Error('trap'); };
  const proxy = new Proxy({}, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap, getPrototypeOf: trap });
  for (const value of [throwingId, proxy]) {
    let returned;
    assert.doesNotThrow(() => { returned = page.respond(value); });
    assert.equal(returned, false);
  }
  await flush();
  assert.equal(pending.state, 'pending');
  let returned;
  assert.doesNotThrow(() => { returned = page.respond(throwingSuccess); });
  assert.equal(returned, false);
  assert.ok(diagnostics.every((d) => d.kind === 'internal_error' || d.kind === 'malformed_response'));
  assert.equal(diagnostics.length, 3);
});

test('a throwing diagnostics hook does not break response handling', async () => {
  const page = createPage();
  page.PWAKit.configure({ onDiagnostic: () => { throw new Error('hook failed'); } });
  const result = page.PWAKit.call('m', 'a');
  assert.doesNotThrow(() => page.respond(null));
  assert.doesNotThrow(() => page.succeed('stranger', 1));
  page.succeed(page.native.last.id, 'fine');
  assert.equal(await result, 'fine');
});

test('extra response fields are ignored', async () => {
  const page = createPage();
  const result = page.PWAKit.call('m', 'a');
  page.respond({ id: page.native.last.id, success: true, data: [1, 2], code: 'x', error: 'y', extra: { z: 1 } });
  assert.deepEqual(plain(await result), [1, 2]);
});

test('the data of a response is handed over as it is, including falsy values', async () => {
  const page = createPage();
  for (const data of [0, '', false, null, { nested: { deep: [1, { x: null }] } }]) {
    const result = page.PWAKit.call('m', 'a');
    page.respond({ id: page.native.last.id, success: true, data });
    assert.deepEqual(plain(await result), data);
  }
});

test('a bridge.error event for an unreadable message settles no call', async () => {
  const page = createPage();
  const pending = track(page.PWAKit.call('m', 'a'));
  const seen = [];
  page.PWAKit.on('bridge.error', (data) => seen.push(plain(data)));
  assert.equal(page.emit({ type: 'bridge.error', data: { code: 'invalid_message', error: 'no readable id' } }), true);
  await flush();
  assert.equal(pending.state, 'pending');
  assert.deepEqual(seen, [{ code: 'invalid_message', error: 'no readable id' }]);
});

test('the SDK remembers the last 1024 finished ids; older answers count as unknown', async () => {
  const page = createPage();
  const diagnostics = page.watchDiagnostics();
  const ids = [];
  for (let i = 0; i < 1025; i++) {
    const result = page.PWAKit.call('m', 'a');
    ids.push(page.native.last.id);
    page.succeed(page.native.last.id, i);
    await result;
  }
  page.succeed(ids[1], 'late');
  page.succeed(ids[0], 'forgotten');
  page.succeed(ids[1024], 'late');
  assert.deepEqual(diagnostics.map((d) => [d.kind, d.id]), [
    ['late_response', ids[1]],
    ['unknown_id', ids[0]],
    ['late_response', ids[1024]]
  ]);
});
