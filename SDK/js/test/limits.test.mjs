// What the SDK refuses before anything crosses into the host: oversized and
// non-serialisable payloads, and every call when there is no host at all.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, rejectsWith } from '../test-support/harness.mjs';

/** Encoded size of the message the SDK would post for a string payload. */
function messageBytes(page, payload) {
  let size;
  page.native.onPost = (message) => {
    size = Buffer.byteLength(JSON.stringify(message), 'utf8');
  };
  page.PWAKit.call('m', 'a', payload).catch(() => {});
  page.native.onPost = null;
  return size;
}

test('a message over 1 MiB is refused with payload_too_large before posting', async () => {
  const page = createPage();
  const error = await rejectsWith(page.PWAKit.call('m', 'a', 'x'.repeat(1024 * 1024)), {
    code: 'payload_too_large', module: 'm', action: 'a'
  });
  assert.equal(error.details.limit, 1048576);
  assert.ok(error.details.size > 1048576);
  assert.equal(error.details.path, 'payload');
  assert.equal(page.native.posted.length, 0);
  assert.equal(page.clock.scheduled, 0);
  assert.equal(page.PWAKit.inFlight, 0);
});

test('the limit applies to the encoded message, exactly at the boundary', async () => {
  const page = createPage({ crypto: false });
  const overhead = messageBytes(page, '');
  const limit = 4096;
  page.PWAKit.configure({ maxMessageBytes: limit });
  const fits = 'y'.repeat(limit - overhead);
  const posted = page.native.posted.length;
  page.PWAKit.call('m', 'a', fits).catch(() => {});
  assert.equal(page.native.posted.length, posted + 1, 'a message of exactly the limit is sent');
  assert.equal(Buffer.byteLength(JSON.stringify(page.native.last), 'utf8'), limit);
  await rejectsWith(page.PWAKit.call('m', 'a', fits + 'y'), {
    code: 'payload_too_large', details: { path: 'payload', size: limit + 1, limit }
  });
});

test('multi-byte characters are counted as UTF-8 bytes', async () => {
  const page = createPage({ crypto: false });
  page.PWAKit.configure({ maxMessageBytes: 1000 });
  const overhead = messageBytes(page, '');
  // "é" is 2 bytes, "€" 3, "😀" 4 (a surrogate pair, two UTF-16 units).
  for (const [char, bytes] of [['é', 2], ['€', 3], ['😀', 4]]) {
    const count = Math.floor((1000 - overhead) / bytes);
    const fits = char.repeat(count);
    const before = page.native.posted.length;
    page.PWAKit.call('m', 'a', fits).catch(() => {});
    assert.equal(page.native.posted.length, before + 1, `${count} × ${char} fits`);
    const over = char.repeat(count + 1);
    const error = await rejectsWith(page.PWAKit.call('m', 'a', over), { code: 'payload_too_large' });
    assert.equal(error.details.size, overhead + (count + 1) * bytes);
  }
});

test('a lone surrogate is sent as its JSON escape and counted as six bytes', async () => {
  const page = createPage({ crypto: false });
  const overhead = messageBytes(page, '');
  page.PWAKit.configure({ maxMessageBytes: overhead + 6 });
  const before = page.native.posted.length;
  page.PWAKit.call('m', 'a', '\ud800').catch(() => {});
  assert.equal(page.native.posted.length, before + 1);
  await rejectsWith(page.PWAKit.call('m', 'a', '\ud800\ud800'), { code: 'payload_too_large' });
});

test('configure can raise the limit', async () => {
  const page = createPage();
  page.PWAKit.configure({ maxMessageBytes: 4 * 1024 * 1024 });
  const result = page.PWAKit.call('m', 'a', 'x'.repeat(2 * 1024 * 1024));
  assert.equal(page.native.last.payload.length, 2 * 1024 * 1024);
  page.succeed(page.native.last.id, 'stored');
  assert.equal(await result, 'stored');
});

const notSerialisable = [
  ['a cycle', () => { const a = { b: {} }; a.b.a = a; return a; }, /circular|cyclic/i],
  ['a BigInt', () => ({ n: 10n }), /BigInt/],
  ['a top-level BigInt', () => 10n, /BigInt/],
  ['a top-level function', () => () => 1, /has no JSON form/],
  ['a top-level symbol', () => Symbol('s'), /has no JSON form/],
  ['a toJSON that throws', () => ({ toJSON() { throw new Error('cannot encode'); } }), /cannot encode/],
  ['a getter that throws', () => Object.defineProperty({}, 'x', { enumerable: true, get() { throw new Error('getter'); } }), /getter/],
  ['a toJSON returning undefined', () => ({ toJSON() { return undefined; } }), /has no JSON form/]
];

for (const [name, make, message] of notSerialisable) {
  test(`a payload with ${name} is refused with invalid_payload before posting`, async () => {
    const page = createPage();
    await rejectsWith(page.PWAKit.call('m', 'a', make()), {
      code: 'invalid_payload', details: { path: 'payload' }, message
    });
    assert.equal(page.native.posted.length, 0);
    assert.equal(page.PWAKit.inFlight, 0);
  });
}

test('outside the host a call rejects at once with unavailable, leaving nothing behind', async () => {
  const page = createPage({ native: false });
  assert.equal(page.PWAKit.isNative, false);
  const error = await rejectsWith(page.PWAKit.call('platform', 'getInfo'), {
    code: 'unavailable', module: 'platform', action: 'getInfo', message: /not running in a PWAKit host/
  });
  assert.ok(error instanceof page.PWAKit.PWAKitError);
  assert.equal(page.clock.scheduled, 0, 'no timer left to keep anything waiting');
  assert.equal(page.PWAKit.inFlight, 0);
});

test('outside the host a webkit object without the pwakit handler is not native', async () => {
  const page = createPage({ native: false });
  page.window.webkit = { messageHandlers: { other: { postMessage() {} } } };
  assert.equal(page.PWAKit.isNative, false);
  await rejectsWith(page.PWAKit.call('m', 'a'), { code: 'unavailable' });
});

test('outside the host bad payloads are still reported as bad payloads', async () => {
  const page = createPage({ native: false });
  await rejectsWith(page.PWAKit.call('m', 'a', { n: 1n }), { code: 'invalid_payload' });
  await rejectsWith(page.PWAKit.call('m', 'a', 'x'.repeat(2 << 20)), { code: 'payload_too_large' });
});
