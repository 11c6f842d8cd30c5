// The ES-module entry, imported for real in this process (not in a vm page):
// a fake message handler on globalThis, Node's mock timers for the timeout.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const posted = [];
globalThis.webkit = {
  messageHandlers: { pwakit: { postMessage: (message) => { posted.push(message); } } }
};
globalThis.pwakit = { protocol: { version: 1, capabilities: ['cancel'], schemaHash: 'h' } };

const module = await import('../pwakit.mjs');
const { PWAKit, PWAKitError } = module;

test('the module exports the global instance and its error class', () => {
  assert.equal(module.default, globalThis.PWAKit);
  assert.equal(PWAKit, globalThis.PWAKit);
  assert.equal(PWAKitError, PWAKit.PWAKitError);
  assert.equal(PWAKit.isNative, true);
  assert.deepEqual(PWAKit.protocol, { version: 1, capabilities: ['cancel'], schemaHash: 'h' });
});

test('importing the module again, or running the classic script again, changes nothing', async () => {
  const again = await import('../pwakit.mjs?second');
  assert.equal(again.PWAKit, PWAKit);
  const { createRequire } = await import('node:module');
  const require = createRequire(import.meta.url);
  require('../pwakit.js');
  assert.equal(globalThis.PWAKit, PWAKit);
});

test('a call through the module resolves via window.pwakit._handleResponse', async () => {
  const result = PWAKit.call('platform', 'getInfo');
  const { id } = posted.at(-1);
  globalThis.pwakit._handleResponse({ id, success: true, data: { platform: 'linux' } });
  assert.deepEqual(await result, { platform: 'linux' });
});

test('a call through the module times out on the mocked clock', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const result = PWAKit.call('slow', 'wait', undefined, { timeout: 5000 });
  const { id } = posted.at(-1);
  t.mock.timers.tick(5000);
  await assert.rejects(result, (error) => {
    assert.ok(error instanceof PWAKitError);
    assert.equal(error.code, 'timeout');
    return true;
  });
  assert.deepEqual(posted.at(-1), { id, cancel: true });
});

test('imported where there is no host, the module reports unavailable', () => {
  const entry = fileURLToPath(new URL('../pwakit.mjs', import.meta.url));
  const script = `
    const { PWAKit, PWAKitError } = await import(${JSON.stringify(entry)});
    try {
      await PWAKit.call('platform', 'getInfo');
      console.log('resolved');
    } catch (error) {
      console.log(JSON.stringify({ native: PWAKit.isNative, protocol: PWAKit.protocol,
        typed: error instanceof PWAKitError, code: error.code }));
    }
  `;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
  assert.deepEqual(JSON.parse(out), { native: false, protocol: null, typed: true, code: 'unavailable' });
});
