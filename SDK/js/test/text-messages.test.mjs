// Hosts whose handshake lists the `textMessages` capability take a call's JSON text; every
// other host gets the object the seed protocol posts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, plain } from '../test-support/harness.mjs';

const TEXT = { version: 1, capabilities: ['cancel', 'textMessages'], schemaHash: '0123456789abcdef' };

test('a host that takes text is posted the call as JSON text, with the same fields', async () => {
  const page = createPage({ pwakit: { protocol: TEXT } });
  const result = page.PWAKit.call('clipboard', 'write', { text: 'é"\u2028' }, { timeout: 5000 });
  const posted = page.native.posted[0];
  assert.equal(typeof posted, 'string');
  const message = JSON.parse(posted);
  assert.deepEqual(message, {
    id: message.id, module: 'clipboard', action: 'write', payload: { text: 'é"\u2028' }, timeoutMs: 5000
  });
  assert.deepEqual(Object.keys(message), ['id', 'module', 'action', 'payload', 'timeoutMs']);
  page.succeed(message.id, { ok: true });
  assert.deepEqual(plain(await result), { ok: true });
});

test('a call without a payload is posted without one', () => {
  const page = createPage({ pwakit: { protocol: TEXT } });
  page.PWAKit.call('platform', 'getInfo').catch(() => {});
  const message = JSON.parse(page.native.posted[0]);
  assert.equal('payload' in message, false);
  assert.equal(message.timeoutMs, 30000);
});

test('cancels stay objects', () => {
  const page = createPage({ pwakit: { protocol: TEXT } });
  const controller = new AbortController();
  page.PWAKit.call('m', 'a', undefined, { signal: controller.signal }).catch(() => {});
  const id = JSON.parse(page.native.posted[0]).id;
  controller.abort();
  assert.deepEqual(plain(page.native.posted[1]), { id, cancel: true });
});

test('without the capability, or with a hostile handshake, calls are posted as objects', () => {
  for (const pwakit of [
    undefined,
    { protocol: { version: 1, capabilities: ['cancel'], schemaHash: 'x' } },
    { protocol: { version: 1, capabilities: 'textMessages', schemaHash: 'x' } },
    { get protocol() { throw new Error('hostile'); } }
  ]) {
    const page = createPage(pwakit === undefined ? {} : { pwakit });
    page.PWAKit.call('m', 'a', { n: 1 }).catch(() => {});
    const posted = page.native.posted[0];
    assert.equal(typeof posted, 'object');
    assert.deepEqual(plain(posted).payload, { n: 1 });
  }
});

test('a handshake that appears after the SDK loaded switches to text from then on', () => {
  const page = createPage({ pwakit: {} });
  page.PWAKit.call('m', 'a').catch(() => {});
  page.window.pwakit.protocol = TEXT;
  page.PWAKit.call('m', 'b').catch(() => {});
  assert.equal(typeof page.native.posted[0], 'object');
  assert.equal(typeof page.native.posted[1], 'string');
});
