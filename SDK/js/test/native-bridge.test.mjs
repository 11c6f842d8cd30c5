// End to end across languages: the real SDK in a page context talks to the real Swift
// dispatcher (`pwakit bridge`, one JSON message per line over standard I/O). Responses
// and events are delivered through window.pwakit._handleResponse/_handleEvent exactly
// as a host delivers them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { createPage, plain } from '../test-support/harness.mjs';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const binary = process.env.PWAKIT_BINARY || `${root}.build/debug/pwakit`;
// The full test entry point sets PWAKIT_REQUIRE_BINARY=1: there a missing binary fails
// these tests instead of skipping them.
const skip = existsSync(binary) || process.env.PWAKIT_REQUIRE_BINARY === '1'
  ? false
  : `no pwakit binary at ${binary} (build it with swift build)`;

/** Connects a fake page to a `pwakit bridge` process; returns the page and a stop(). */
function connect(args = [], config = `${root}Examples/hello`) {
  const child = spawn(binary, ['bridge', config, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const page = createPage({ load: false, native: true });
  const lines = [];
  let handshake;
  const ready = new Promise((resolve) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      lines.push(line);
      const output = JSON.parse(line);
      if (output.type === 'protocol') {
        handshake = output.data;
        resolve();
      } else if (typeof output.type === 'string') {
        page.window.pwakit._handleEvent(output);
      } else {
        page.window.pwakit._handleResponse(output);
      }
    });
  });
  // The relay: whatever the page posts crosses to the native side as JSON text.
  page.native.onPost = (message) => child.stdin.write(JSON.stringify(message) + '\n');
  const closed = new Promise((resolve) => child.on('close', resolve));
  let stopping;
  const stop = () => {
    stopping ??= (child.stdin.end(), closed);
    return stopping;
  };
  return { page, ready, lines, stop, get handshake() { return handshake; } };
}

test('the SDK and the Swift dispatcher agree on the wire protocol', { skip }, async (t) => {
  const bridge = connect();
  t.after(bridge.stop);
  await bridge.ready;
  bridge.page.eval(`globalThis.pwakit = { protocol: Object.freeze(${JSON.stringify(bridge.handshake)}) };`);
  const PWAKit = bridge.page.load();
  // The clock is fake in this harness; real time passes in the native process.
  assert.equal(PWAKit.protocol.version, 1);
  assert.equal(PWAKit.protocol.schemaHash.length, 16);
  assert.equal(PWAKit.isNative, true);

  const info = plain(await PWAKit.call('platform', 'getInfo'));
  assert.equal(info.isNative, true);
  assert.equal(info.platform, 'linux');
  assert.equal(info.deviceFeatures, 'simulated');

  await assert.rejects(PWAKit.call('platform', 'nope'), (error) => {
    assert.equal(error.code, 'unknown_action');
    assert.deepEqual(plain(error.details), { path: 'action' });
    return true;
  });
  await assert.rejects(PWAKit.call('teleport', 'go'), (error) => error.code === 'unknown_module');
  await assert.rejects(PWAKit.call('platform', 'getInfo', 'not an object'), (error) => {
    assert.equal(error.code, 'invalid_payload');
    assert.equal(error.details.path, 'payload');
    return true;
  });

  // Many calls in flight at once all come back, each to its own promise.
  const many = await Promise.all(Array.from({ length: 50 }, () => PWAKit.call('platform', 'getInfo')));
  assert.equal(many.length, 50);
  assert.ok(many.every((result) => result.isNative === true));
});

test('a page whose origin the configuration does not allow gets origin_not_allowed', { skip }, async (t) => {
  const bridge = connect(['--origin', 'https://evil.example/']);
  t.after(bridge.stop);
  await bridge.ready;
  const PWAKit = bridge.page.load();
  await assert.rejects(PWAKit.call('platform', 'getInfo'), (error) => error.code === 'origin_not_allowed');
});

test('a seed-era page posting JSON strings is answered too', { skip }, async () => {
  const bridge = connect();
  await bridge.ready;
  const answers = [];
  bridge.page.window.pwakit = { _handleResponse: (response) => answers.push(response), _handleEvent() {} };
  // A seed-era page posts the message object; some post JSON.stringify(message).
  bridge.page.native.handler.postMessage(JSON.stringify({ id: 'seed-1', module: 'platform', action: 'getInfo' }));
  bridge.page.native.handler.postMessage({ id: 'seed-2', module: 'platform', action: 'getInfo' });
  await bridge.stop();
  const ids = answers.map((answer) => answer.id).sort();
  assert.deepEqual(ids, ['seed-1', 'seed-2']);
  assert.ok(answers.every((answer) => answer.success === true));
});

test('the Web API counterparts agree with the built-in modules', { skip }, async (t) => {
  // The example's configuration with the three permission modules turned on.
  const dir = mkdtempSync(join(tmpdir(), 'pwakit-web-apis-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const config = JSON.parse(readFileSync(`${root}Examples/hello/pwa-config.json`, 'utf8'));
  Object.assign(config.features, { cameraPermission: true, microphonePermission: true, locationPermission: true });
  writeFileSync(join(dir, 'pwa-config.json'), JSON.stringify(config));
  const bridge = connect([], dir);
  t.after(bridge.stop);
  await bridge.ready;
  const PWAKit = bridge.page.load();

  assert.equal(typeof await PWAKit.vibrate([100, 50, 100]), 'boolean');
  assert.equal(typeof await PWAKit.vibrate(0), 'boolean');

  assert.equal(await PWAKit.clipboard.readText(), '', 'an empty clipboard reads as no text');
  assert.equal(await PWAKit.clipboard.writeText('copied ✓'), undefined);
  assert.equal(await PWAKit.clipboard.readText(), 'copied ✓');

  const file = new File(['hello'], 'a.txt', { type: 'text/plain; charset=utf-8' });
  const outcome = plain(await PWAKit.share({ text: 'hi', url: 'https://pwakit.dev/', files: [file, new Blob([Uint8Array.of(1, 2, 3)])] }));
  assert.equal(typeof outcome.shared, 'boolean');
  assert.equal(await PWAKit.canShare({ text: 'hi', files: [file] }), true);
  await assert.rejects(PWAKit.share({ title: 'a title alone' }), (error) => {
    assert.equal(error.code, 'invalid_payload', 'the share module wants text, a URL or files');
    assert.equal(error.details.path, 'payload');
    return true;
  });
  await assert.rejects(PWAKit.share({ files: Array.from({ length: 11 }, () => file) }), (error) => {
    assert.equal(error.code, 'invalid_payload');
    assert.equal(error.details.path, 'payload.files');
    return true;
  });

  assert.equal(await PWAKit.setAppBadge(3), undefined);
  assert.equal(await PWAKit.setAppBadge(), undefined);
  assert.equal(await PWAKit.clearAppBadge(), undefined);
  await assert.rejects(PWAKit.setAppBadge(1e6), (error) => error.code === 'invalid_payload' && error.details.path === 'payload.count');

  for (const [name, webName] of [['camera', 'camera'], ['microphone', 'microphone'], ['location', 'geolocation']]) {
    const queried = plain(await PWAKit.permissions.query({ name }));
    assert.equal(queried.name, webName);
    assert.ok(['granted', 'denied', 'prompt'].includes(queried.state), `${name}: ${queried.state}`);
    assert.equal(typeof queried.restricted, 'boolean');
    const requested = plain(await PWAKit.permissions.request({ name }));
    assert.ok(['granted', 'denied'].includes(requested.state), `${name} after asking: ${requested.state}`);
  }

  const hello = await PWAKit.modules.platform.getInfo();
  assert.equal(hello.isNative, true);
});

test('Web API counterparts for a module the configuration turns off reject with unavailable', { skip }, async (t) => {
  const bridge = connect();
  t.after(bridge.stop);
  await bridge.ready;
  const PWAKit = bridge.page.load();
  bridge.page.window.navigator = { permissions: { query: () => Promise.resolve({ state: 'granted' }) } };
  // Examples/hello turns the camera, microphone and location permissions off.
  for (const name of ['camera', 'microphone', 'location']) {
    await assert.rejects(PWAKit.permissions.query({ name }), (error) => error.code === 'unavailable' && error.module === name);
  }
});
