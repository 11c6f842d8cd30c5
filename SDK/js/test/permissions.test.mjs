// PWAKit.permissions: camera / microphone / location .check and .request inside a host,
// navigator.permissions.query (and, to ask, the capability itself) outside one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

/**
 * A navigator with permissions.query answering from `states` (name → state, or an
 * error to reject with), mediaDevices.getUserMedia and geolocation.getCurrentPosition
 * settling as `media` / `position` say. Each records what it was asked.
 */
function fakeNavigator({ states = {}, media = 'grant', position = 'grant', query = true, prompts = true } = {}) {
  const log = [];
  const tracks = [];
  const navigator = { log, tracks };
  if (query) {
    navigator.permissions = {
      query(descriptor) {
        log.push(['query', plain(descriptor)]);
        const state = states[descriptor.name];
        if (state instanceof Error) return Promise.reject(state);
        return Promise.resolve({ name: descriptor.name, state: state ?? 'prompt' });
      }
    };
  }
  if (prompts) {
    navigator.mediaDevices = {
      getUserMedia(constraints) {
        log.push(['getUserMedia', plain(constraints)]);
        if (media === 'never') return new Promise(() => {});
        if (media instanceof Error) return Promise.reject(media);
        const track = { stopped: false, stop() { this.stopped = true; } };
        tracks.push(track);
        const stream = { getTracks: () => [track] };
        if (typeof media === 'function') return new Promise((resolve) => media(() => resolve(stream)));
        return Promise.resolve(stream);
      }
    };
    navigator.geolocation = {
      getCurrentPosition(success, failure, options) {
        log.push(['getCurrentPosition', plain(options)]);
        if (position === 'grant') success({ coords: { latitude: 0, longitude: 0 } });
        else if (typeof position === 'number') failure({ code: position, message: 'no' });
      }
    };
  }
  return navigator;
}

const NAMES = [
  ['camera', 'camera', 'camera'],
  ['microphone', 'microphone', 'microphone'],
  ['geolocation', 'location', 'geolocation'],
  ['location', 'location', 'geolocation']
];

const STATES = [
  ['granted', { state: 'granted', restricted: false }],
  ['denied', { state: 'denied', restricted: false }],
  ['notDetermined', { state: 'prompt', restricted: false }],
  ['restricted', { state: 'denied', restricted: true }]
];

test('in a host query posts <module>.check and maps the state to Web terms', async () => {
  const page = createPage();
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  for (const [name, module, webName] of NAMES) {
    for (const [nativeState, mapped] of STATES) {
      const result = page.PWAKit.permissions.query({ name });
      const message = page.native.last;
      assert.deepEqual(plain(message), { id: message.id, module, action: 'check', timeoutMs: 30000 });
      page.succeed(message.id, { state: nativeState });
      assert.deepEqual(plain(await result), { name: webName, ...mapped });
    }
  }
  assert.deepEqual(navigator.log, [], 'the Web API is not used inside a host');
});

test('in a host request posts <module>.request with the interactive default timeout', async () => {
  const page = createPage();
  for (const [name, module, webName] of NAMES) {
    const result = page.PWAKit.permissions.request({ name });
    const message = page.native.last;
    assert.deepEqual(plain(message), { id: message.id, module, action: 'request', timeoutMs: 600000 });
    page.succeed(message.id, { state: 'granted' });
    assert.deepEqual(plain(await result), { name: webName, state: 'granted', restricted: false });
  }
  const restricted = page.PWAKit.permissions.request({ name: 'camera' }, { timeout: 2500 });
  assert.equal(page.native.last.timeoutMs, 2500);
  page.succeed(page.native.last.id, { state: 'restricted' });
  assert.deepEqual(plain(await restricted), { name: 'camera', state: 'denied', restricted: true });
});

test('a malformed native answer is invalid_message naming what is wrong', async () => {
  const page = createPage();
  const cases = [[undefined, 'data'], [null, 'data'], ['granted', 'data'], [{}, 'data.state'],
    [{ state: 'prompt' }, 'data.state'], [{ state: 'GRANTED' }, 'data.state'], [{ state: 1 }, 'data.state'],
    [{ state: 'toString' }, 'data.state']];
  for (const [data, path] of cases) {
    const result = page.PWAKit.permissions.query({ name: 'microphone' });
    page.succeed(page.native.last.id, data);
    await rejectsWith(result, { code: 'invalid_message', module: 'microphone', action: 'check', details: { path } });
  }
});

test('native errors pass through, unavailable included (no fallback)', async () => {
  const page = createPage();
  const navigator = fakeNavigator({ states: { camera: 'granted' } });
  page.window.navigator = navigator;
  const query = page.PWAKit.permissions.query({ name: 'camera' });
  page.failWith(page.native.last.id, 'unavailable', 'cameraPermission is off');
  await rejectsWith(query, { code: 'unavailable', module: 'camera', action: 'check' });
  const request = page.PWAKit.permissions.request({ name: 'location' });
  page.failWith(page.native.last.id, 'permission_denied', 'not granted to this origin');
  await rejectsWith(request, { code: 'permission_denied', module: 'location', action: 'request' });
  assert.deepEqual(navigator.log, []);
});

test('outside a host query uses navigator.permissions.query with the Web name', async () => {
  const page = createPage({ native: false });
  const navigator = fakeNavigator({ states: { camera: 'granted', microphone: 'denied', geolocation: 'prompt' } });
  page.window.navigator = navigator;
  assert.deepEqual(plain(await page.PWAKit.permissions.query({ name: 'camera' })), { name: 'camera', state: 'granted', restricted: false });
  assert.deepEqual(plain(await page.PWAKit.permissions.query({ name: 'microphone' })), { name: 'microphone', state: 'denied', restricted: false });
  assert.deepEqual(plain(await page.PWAKit.permissions.query({ name: 'location' })), { name: 'geolocation', state: 'prompt', restricted: false });
  assert.deepEqual(navigator.log, [['query', { name: 'camera' }], ['query', { name: 'microphone' }], ['query', { name: 'geolocation' }]]);
});

test('outside a host a name the browser cannot query is unavailable; an odd answer is module_error', async () => {
  const unknown = new TypeError("'camera' is not a valid value for enumeration PermissionName.");
  const page = createPage({ native: false });
  page.window.navigator = fakeNavigator({ states: { camera: unknown, microphone: 'maybe' } });
  const error = await rejectsWith(page.PWAKit.permissions.query({ name: 'camera' }), {
    code: 'unavailable', module: 'camera', action: 'check'
  });
  assert.equal(error.cause, unknown);
  await rejectsWith(page.PWAKit.permissions.query({ name: 'microphone' }), { code: 'module_error', message: /maybe|a string/ });
  page.window.navigator = { permissions: { query: () => Promise.resolve({ get state() { throw new Error('hostile'); } }) } };
  await rejectsWith(page.PWAKit.permissions.query({ name: 'microphone' }), { code: 'module_error' });
});

test('outside a host request answers a decided permission without touching the device', async () => {
  const page = createPage({ native: false });
  const navigator = fakeNavigator({ states: { camera: 'granted', geolocation: 'denied' } });
  page.window.navigator = navigator;
  assert.deepEqual(plain(await page.PWAKit.permissions.request({ name: 'camera' })), { name: 'camera', state: 'granted', restricted: false });
  assert.deepEqual(plain(await page.PWAKit.permissions.request({ name: 'location' })), { name: 'geolocation', state: 'denied', restricted: false });
  assert.deepEqual(navigator.log.map(([what]) => what), ['query', 'query']);
});

test('outside a host request asks through a media stream, stopped at once', async () => {
  const page = createPage({ native: false });
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  assert.deepEqual(plain(await page.PWAKit.permissions.request({ name: 'camera' })), { name: 'camera', state: 'granted', restricted: false });
  assert.deepEqual(plain(await page.PWAKit.permissions.request({ name: 'microphone' })), { name: 'microphone', state: 'granted', restricted: false });
  assert.deepEqual(navigator.log, [
    ['query', { name: 'camera' }], ['getUserMedia', { video: true }],
    ['query', { name: 'microphone' }], ['getUserMedia', { audio: true }]
  ]);
  assert.ok(navigator.tracks.length === 2 && navigator.tracks.every((track) => track.stopped));

  page.window.navigator = fakeNavigator({ media: new DOMException('no', 'NotAllowedError') });
  assert.equal((await page.PWAKit.permissions.request({ name: 'camera' })).state, 'denied');
  page.window.navigator = fakeNavigator({ media: new DOMException('insecure', 'SecurityError') });
  assert.equal((await page.PWAKit.permissions.request({ name: 'camera' })).state, 'denied');
  const missing = new DOMException('no camera', 'NotFoundError');
  page.window.navigator = fakeNavigator({ media: missing });
  const error = await rejectsWith(page.PWAKit.permissions.request({ name: 'camera' }), {
    code: 'unavailable', module: 'camera', action: 'request', message: /getUserMedia/
  });
  assert.equal(error.cause, missing);
});

test('outside a host request asks through one position; only PERMISSION_DENIED is denied', async () => {
  const page = createPage({ native: false });
  let navigator = fakeNavigator();
  page.window.navigator = navigator;
  assert.deepEqual(plain(await page.PWAKit.permissions.request({ name: 'geolocation' })), { name: 'geolocation', state: 'granted', restricted: false });
  assert.deepEqual(navigator.log[1], ['getCurrentPosition', { maximumAge: Infinity }]);
  for (const [code, state] of [[1, 'denied'], [2, 'granted'], [3, 'granted']]) {
    navigator = fakeNavigator({ position: code });
    page.window.navigator = navigator;
    assert.equal((await page.PWAKit.permissions.request({ name: 'location' })).state, state, `error code ${code}`);
  }
});

test('outside a host request without the Permissions API still asks; without a way to ask it reports the state', async () => {
  const page = createPage({ native: false });
  page.window.navigator = fakeNavigator({ query: false });
  assert.equal((await page.PWAKit.permissions.request({ name: 'camera' })).state, 'granted');
  page.window.navigator = fakeNavigator({ states: { camera: new TypeError('unknown name') } });
  assert.equal((await page.PWAKit.permissions.request({ name: 'camera' })).state, 'granted', 'a failed query still asks');
  page.window.navigator = fakeNavigator({ prompts: false, states: { microphone: 'prompt' } });
  assert.deepEqual(plain(await page.PWAKit.permissions.request({ name: 'microphone' })), { name: 'microphone', state: 'prompt', restricted: false });
  page.window.navigator = fakeNavigator({ prompts: false, states: { microphone: new TypeError('unknown name') } });
  await rejectsWith(page.PWAKit.permissions.request({ name: 'microphone' }), { code: 'unavailable' });
});

test('a stream that arrives after the wait was abandoned is still stopped', async () => {
  const page = createPage({ native: false });
  let deliver;
  const navigator = fakeNavigator({ media: (resolve) => { deliver = resolve; } });
  page.window.navigator = navigator;
  const controller = new AbortController();
  const result = track(page.PWAKit.permissions.request({ name: 'camera' }, { signal: controller.signal }));
  await flush();
  controller.abort();
  await flush();
  assert.equal(result.value.code, 'cancelled');
  assert.equal(result.value.module, 'camera');
  deliver();
  await flush();
  assert.equal(navigator.tracks.length, 1);
  assert.equal(navigator.tracks[0].stopped, true);

  page.window.navigator = fakeNavigator({ position: 'never' });
  const timed = track(page.PWAKit.permissions.request({ name: 'location' }, { timeout: 3000 }));
  await flush();
  page.clock.advance(3000);
  await flush();
  assert.equal(timed.value.code, 'timeout');
});

test('with neither a host nor the Web APIs both reject with unavailable', async () => {
  for (const navigator of [undefined, {}, { permissions: {} }, { get permissions() { throw new Error('hostile'); } }]) {
    const page = createPage({ native: false });
    if (navigator !== undefined) page.window.navigator = navigator;
    await rejectsWith(page.PWAKit.permissions.query({ name: 'camera' }), { code: 'unavailable', module: 'camera', action: 'check' });
    await rejectsWith(page.PWAKit.permissions.request({ name: 'location' }), { code: 'unavailable', module: 'location', action: 'request' });
  }
});

test('an invalid descriptor is invalid_payload naming it on every path', async () => {
  const cases = [
    [undefined, 'descriptor'], [null, 'descriptor'], ['camera', 'descriptor'], [['camera'], 'descriptor'],
    [{}, 'descriptor.name'], [{ name: 'notifications' }, 'descriptor.name'], [{ name: 'Camera' }, 'descriptor.name'],
    [{ name: '__proto__' }, 'descriptor.name'], [{ name: 'toString' }, 'descriptor.name'], [{ name: 'constructor' }, 'descriptor.name'],
    [{ name: 5 }, 'descriptor.name'], [{ name: { toString: () => 'camera' } }, 'descriptor.name'],
    [{ get name() { throw new Error('boom'); } }, 'descriptor.name'],
    [new Proxy({}, { get() { throw new Error('boom'); } }), 'descriptor.name'],
    [{ name: 'x'.repeat(1e6) }, 'descriptor.name']
  ];
  for (const native of [true, false]) {
    const page = createPage({ native });
    const navigator = fakeNavigator();
    page.window.navigator = navigator;
    for (const [n, [descriptor, path]] of cases.entries()) {
      for (const method of ['query', 'request']) {
        const error = await rejectsWith(page.PWAKit.permissions[method](descriptor), { code: 'invalid_payload' });
        assert.equal(error.details.path, path, `${method} case #${n}`);
        assert.ok(error.message.length < 300, 'the message does not echo a huge name');
      }
    }
    await rejectsWith(page.PWAKit.permissions.query({ name: 'camera' }, { timeout: NaN }), { code: 'invalid_message' });
    assert.equal(page.native.posted.length, 0);
    assert.deepEqual(navigator.log, []);
  }
});

test('the permissions object is frozen', () => {
  const page = createPage();
  assert.equal(Object.isFrozen(page.PWAKit.permissions), true);
  assert.deepEqual(Object.keys(page.PWAKit.permissions), ['query', 'request']);
});
