// The example app that demonstrates the SDK (Examples/hello) stays well-formed:
// its web app manifest carries what a PWAKit configuration is made from, every
// file the page references exists, and the page behaves as it says in a host and
// outside one (run in a vm page against a small document built from index.html).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import vm from 'node:vm';
import { existsSync, readFileSync } from 'node:fs';
import { createPage, flush, plain } from '../test-support/harness.mjs';
import { createDocument, createFrames } from '../test-support/fake-dom.mjs';

const root = new URL('../../../Examples/hello/', import.meta.url);
const read = (name) => readFileSync(new URL(name, root), 'utf8');

test('the manifest has the fields a PWAKit configuration is made from', () => {
  const manifest = JSON.parse(read('manifest.json'));
  assert.equal(manifest.name, 'Hello PWAKit');
  assert.equal(typeof manifest.short_name, 'string');
  assert.ok(manifest.short_name.length > 0 && manifest.short_name.length <= 12);
  assert.equal(manifest.start_url, '/index.html');
  assert.equal(manifest.display, 'standalone');
  assert.match(manifest.theme_color, /^#[0-9A-Fa-f]{6}$/);
  assert.match(manifest.background_color, /^#[0-9A-Fa-f]{6}$/);
  assert.ok(Array.isArray(manifest.icons) && manifest.icons.length > 0);
  for (const icon of manifest.icons) {
    assert.ok(existsSync(new URL(icon.src, root)), `icon ${icon.src} exists`);
  }
});

test('every local file the page references exists', () => {
  const html = read('index.html');
  const references = [...html.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(references.length >= 4);
  for (const ref of references) {
    assert.ok(!/^[a-z]+:/i.test(ref) && !ref.startsWith('//'), `${ref} is local`);
    assert.ok(existsSync(new URL(ref, root)), `${ref} exists`);
  }
  assert.ok(!references.some((ref) => ref.includes('pwakit')), 'the page does not ship the SDK');
});

/**
 * Opens the example in a vm page: the SDK as the host would inject it (or no SDK
 * at all), a document built from index.html, and frames the test runs.
 */
function openExample({ sdk = true, native = true } = {}) {
  const page = createPage({ native, load: sdk });
  const document = createDocument(read('index.html'));
  const frames = createFrames();
  Object.assign(page.window, {
    window: page.window,
    document,
    navigator: { userAgent: 'FakeKit/1.0', onLine: true },
    requestAnimationFrame: frames.requestAnimationFrame
  });
  new vm.Script(read('app.js'), { filename: 'app.js' }).runInContext(page.window);
  const byId = (id) => {
    const element = document.getElementById(id);
    assert.ok(element, `#${id} exists`);
    return element;
  };
  const logText = () => byId('log').children.map((item) => item.textContent);
  return { page, document, frames, byId, logText };
}

function paint(frames) {
  frames.frame();
  frames.frame();
}

test('outside a host the example says so, disables native controls and signals ready', async () => {
  const { document, frames, byId, page } = openExample({ sdk: false, native: false });
  assert.equal(byId('status').textContent, 'Not running in PWAKit');
  assert.equal(document.documentElement.dataset.native, 'false');
  assert.match(byId('device-note').textContent, /Not running in PWAKit/);
  assert.match(byId('protocol-info').textContent, /none \(no host\)/);
  const controls = document.querySelectorAll('.native-only');
  assert.ok(controls.length >= 5);
  assert.ok(controls.every((control) => control.disabled));
  await flush();
  assert.equal(document.documentElement.dataset.ready, undefined, 'not before a frame was drawn');
  paint(frames);
  assert.equal(document.documentElement.dataset.ready, 'true');
  assert.equal(page.window.PWAKit, undefined);
});

test('outside a host with the SDK present the example still degrades', async () => {
  const { document, frames, byId, page } = openExample({ sdk: true, native: false });
  assert.equal(byId('status').textContent, 'Not running in PWAKit');
  await flush();
  paint(frames);
  assert.equal(document.documentElement.dataset.ready, 'true');
  assert.equal(page.native.posted.length, 0);
});

test('in a host the example shows the handshake and platform.getInfo, then signals ready', async () => {
  const { document, frames, byId, page } = openExample();
  page.window.pwakit.protocol = { version: 1, capabilities: ['cancel'], schemaHash: 'sha256:x' };
  assert.equal(byId('status').textContent, 'Running in PWAKit');
  const request = page.native.last;
  assert.deepEqual([request.module, request.action, request.timeoutMs], ['platform', 'getInfo', 5000]);
  paint(frames);
  assert.equal(document.documentElement.dataset.ready, undefined, 'waits for the device facts');
  page.succeed(request.id, { platform: 'linux', osVersion: 'Debian 12', simulated: true });
  await flush();
  paint(frames);
  assert.equal(document.documentElement.dataset.ready, 'true');
  const facts = byId('device-info').textContent;
  assert.match(facts, /Platform linux/);
  assert.match(facts, /OS version Debian 12/);
  assert.match(facts, /Simulated features yes/);
});

test('in a host the example shows the protocol the host set before it ran', () => {
  const page = createPage({ pwakit: { protocol: { version: 3, capabilities: ['cancel', 'reply'], schemaHash: 'h1' } } });
  const document = createDocument(read('index.html'));
  Object.assign(page.window, { window: page.window, document, navigator: {}, requestAnimationFrame: () => 0 });
  new vm.Script(read('app.js')).runInContext(page.window);
  const text = document.getElementById('protocol-info').textContent;
  assert.match(text, /Version 3/);
  assert.match(text, /Capabilities cancel, reply/);
  assert.match(text, /Schema hash h1/);
});

test('the example still signals ready when platform.getInfo fails or never answers', async () => {
  const failing = openExample();
  failing.page.failWith(failing.page.native.last.id, 'permission_denied', 'Not granted');
  await flush();
  paint(failing.frames);
  assert.equal(failing.document.documentElement.dataset.ready, 'true');
  assert.match(failing.byId('device-info').textContent, /permission_denied: Not granted/);

  const silent = openExample();
  silent.page.clock.advance(5000);
  await flush();
  paint(silent.frames);
  assert.equal(silent.document.documentElement.dataset.ready, 'true');
  assert.match(silent.byId('device-info').textContent, /timeout/);
});

test('the example buttons call the bridge and show results and error codes', async () => {
  const { byId, document, page, logText } = openExample();
  page.succeed(page.native.last.id, { platform: 'linux' });
  await flush();

  document.querySelectorAll('[data-impact]').find((b) => b.getAttribute('data-impact') === 'heavy').click();
  assert.deepEqual([page.native.last.module, page.native.last.action, page.native.last.payload.style],
    ['haptics', 'impact', 'heavy']);
  page.succeed(page.native.last.id);
  await flush();
  assert.match(logText()[0], /haptics\.impact \(heavy\) done/);

  byId('clipboard-text').value = 'copied text';
  const submit = byId('clipboard-form').dispatch('submit');
  assert.equal(submit.defaultPrevented, true);
  assert.deepEqual(plain(page.native.last.payload), { text: 'copied text' });
  page.failWith(page.native.last.id, 'clipboard.unavailable', 'No clipboard', { path: 'payload.text' });
  await flush();
  assert.match(logText()[0], /clipboard\.unavailable: No clipboard \(at payload\.text\)/);

  byId('unknown-module').click();
  assert.equal(page.native.last.module, 'nosuch');
  page.failWith(page.native.last.id, 'unknown_module', 'No module named nosuch');
  await flush();
  assert.match(logText()[0], /unknown_module: No module named nosuch/);
});

test('the example lists push events and bridge errors from the host', () => {
  const { page, logText } = openExample();
  page.emit({ type: 'push', data: { type: 'received', title: 'New message', body: 'Lunch at noon?' } });
  assert.match(logText()[0], /Push: New message Lunch at noon\?/);
  page.emit({ type: 'bridge.error', data: { code: 'invalid_message', error: 'no readable id' } });
  assert.match(logText()[0], /Bridge error invalid_message: no readable id/);
  for (let i = 0; i < 20; i++) page.emit({ type: 'push', data: { title: 'n' + i } });
  assert.equal(logText().length, 12, 'the list keeps the latest entries');
});

test('the icon is an SVG with a viewBox', () => {
  const svg = read('icon.svg');
  assert.match(svg, /^<svg [^>]*xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  assert.match(svg, /viewBox="0 0 \d+ \d+"/);
});
