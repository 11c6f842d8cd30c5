// PWAKit.share and PWAKit.canShare: share.share / share.canShare inside a host (files
// read and base64-encoded, under the message limit), navigator.share / canShare outside.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createPage, flush, plain, postedAfter, rejectsWith, track } from '../test-support/harness.mjs';

const PAGE_URL = 'https://app.example/docs/page.html';

/** A page that can parse URLs, at PAGE_URL, with `navigator` when given. */
function sharePage({ native = true, navigator, file = true } = {}) {
  const page = createPage({ native });
  page.window.URL = URL;
  page.window.location = { href: PAGE_URL };
  if (file) page.window.File = File;
  if (navigator) page.window.navigator = navigator;
  return page;
}

/** A navigator whose share records what it got and settles as `outcome` says. */
function fakeNavigator({ outcome = 'resolve', canShare = true } = {}) {
  const shared = [];
  const asked = [];
  const navigator = {
    shared,
    asked,
    share(data) {
      shared.push(data);
      if (outcome === 'resolve') return Promise.resolve();
      if (outcome === 'never') return new Promise(() => {});
      return Promise.reject(outcome);
    }
  };
  if (canShare !== null) {
    navigator.canShare = (data) => {
      asked.push(data);
      return canShare;
    };
  }
  return navigator;
}

/** A Blob-like object whose methods the test controls. */
function blobLike({ size = 3, type = 'text/plain', name, read = () => Promise.resolve(new ArrayBuffer(size)) } = {}) {
  let reads = 0;
  return {
    size, type, name,
    get reads() { return reads; },
    arrayBuffer() { reads += 1; return read(); }
  };
}

test('in a host share posts share.share with the text fields and resolves {shared}', async () => {
  const page = sharePage({ navigator: fakeNavigator() });
  const result = page.PWAKit.share({ title: 'Hi', text: 'Look', url: '../about?x=1#y' });
  const message = await postedAfter(page);
  assert.deepEqual(plain(message), {
    id: message.id,
    module: 'share',
    action: 'share',
    payload: { title: 'Hi', text: 'Look', url: 'https://app.example/about?x=1#y' },
    timeoutMs: 600000
  });
  page.succeed(message.id, { shared: true });
  assert.deepEqual(plain(await result), { shared: true });
  assert.deepEqual(page.window.navigator.shared, [], 'the Web API is not used inside a host');
});

test('a dismissed share sheet is {shared: false}, an ordinary outcome', async () => {
  const page = sharePage();
  const result = page.PWAKit.share({ text: 'x' });
  page.succeed((await postedAfter(page)).id, { shared: false });
  assert.deepEqual(plain(await result), { shared: false });
});

test('files are read and sent base64-encoded as {name, type, data}', async () => {
  const page = sharePage();
  const photo = new File([Uint8Array.of(0xff, 0xd8, 0xff, 0xe0)], 'photo.jpg', { type: 'image/jpeg' });
  const blob = new Blob(['hello'], { type: '' });
  const result = page.PWAKit.share({ text: 'two files', files: [photo, blob] });
  const message = await postedAfter(page);
  assert.deepEqual(plain(message.payload), {
    text: 'two files',
    files: [
      { name: 'photo.jpg', type: 'image/jpeg', data: '/9j/4A==' },
      { name: 'file-2', type: 'application/octet-stream', data: Buffer.from('hello').toString('base64') }
    ]
  });
  page.succeed(message.id, { shared: true });
  assert.deepEqual(plain(await result), { shared: true });
});

test('file types are sent as bare media types, as a host expects them', async () => {
  const page = sharePage();
  const types = [
    ['image/png', 'image/png'],
    ['text/plain;charset=utf-8', 'text/plain'],
    ['text/plain; charset=utf-8', 'text/plain'],
    ['', 'application/octet-stream'],
    ['plain', 'application/octet-stream'],
    ['a/b/c', 'application/octet-stream'],
    ['/png', 'application/octet-stream'],
    ['image /png', 'application/octet-stream'],
    [`x/${'y'.repeat(300)}`, 'application/octet-stream']
  ];
  const files = types.map(([type], i) => blobLike({ size: 1, type, name: `f${i}` }));
  const result = page.PWAKit.share({ files });
  const message = await postedAfter(page);
  assert.deepEqual(plain(message.payload.files.map((file) => file.type)), types.map(([, sent]) => sent));
  page.succeed(message.id, { shared: true });
  await result;
});

test('the base64 encoding matches Node for every tail length and random content', async () => {
  const page = sharePage();
  const samples = [0, 1, 2, 3, 4, 5, 6, 255, 256, 257, 65536].map((n) => randomBytes(n));
  samples.push(Buffer.from([0, 0, 0]), Buffer.from([255, 255, 255, 255]));
  const files = samples.map((bytes, i) => new File([bytes], `f${i}.bin`, { type: 'application/octet-stream' }));
  const result = page.PWAKit.share({ files });
  const message = await postedAfter(page);
  assert.deepEqual(plain(message.payload.files.map((file) => file.data)), samples.map((bytes) => bytes.toString('base64')));
  page.succeed(message.id, { shared: true });
  await result;
});

test('files too large for one message are refused before any is read', async () => {
  const page = sharePage();
  const big = blobLike({ size: 800 * 1024 });
  const small = blobLike({ size: 10 });
  const error = await rejectsWith(page.PWAKit.share({ files: [small, big] }), {
    code: 'payload_too_large', module: 'share', action: 'share'
  });
  assert.equal(error.details.path, 'payload.files');
  assert.equal(error.details.limit, 1048576);
  assert.ok(error.details.size > 1048576);
  assert.equal(small.reads + big.reads, 0);
  assert.equal(page.native.posted.length, 0);

  page.PWAKit.configure({ maxMessageBytes: 4096 });
  const over = await rejectsWith(page.PWAKit.share({ files: [blobLike({ size: 3100 })] }), { code: 'payload_too_large' });
  assert.equal(over.details.path, 'payload.files');
  assert.equal(over.details.limit, 4096);
  const fits = page.PWAKit.share({ files: [blobLike({ size: 2048 })] });
  page.succeed((await postedAfter(page)).id, { shared: true });
  assert.deepEqual(plain(await fits), { shared: true });
});

test('a file that understates its size is refused once its real size is known', async () => {
  const page = sharePage();
  const liar = blobLike({ size: 1, read: () => Promise.resolve(new ArrayBuffer(2 * 1024 * 1024)) });
  const after = blobLike({ size: 1 });
  const error = await rejectsWith(page.PWAKit.share({ files: [liar, after] }), { code: 'payload_too_large' });
  assert.equal(error.details.path, 'payload.files');
  assert.equal(after.reads, 0, 'reading stops at the file that overflows');
  assert.equal(page.native.posted.length, 0);
});

test('many small files are bounded by the message limit too', async () => {
  const page = sharePage();
  const files = Array.from({ length: 50000 }, () => blobLike({ size: 0 }));
  const error = await rejectsWith(page.PWAKit.share({ files }), { code: 'payload_too_large' });
  assert.equal(error.details.path, 'payload.files');
  assert.equal(files.reduce((sum, file) => sum + file.reads, 0), 0);
});

test('text over the message limit is refused by the call with payload_too_large', async () => {
  const page = sharePage();
  const error = await rejectsWith(page.PWAKit.share({ text: 'x'.repeat(2 * 1024 * 1024) }), { code: 'payload_too_large' });
  assert.equal(error.details.path, 'payload');
  assert.equal(page.native.posted.length, 0);
});

test('a file that cannot be read is invalid_payload naming its index', async () => {
  const page = sharePage();
  const boom = new Error('gone');
  const cases = [
    blobLike({ read: () => Promise.reject(boom) }),
    blobLike({ read: () => { throw boom; } }),
    blobLike({ read: () => Promise.resolve('not bytes') }),
    blobLike({ read: () => Promise.resolve(new Uint8Array(3)) }),
    blobLike({ read: () => Promise.resolve({ byteLength: 3 }) })
  ];
  for (const bad of cases) {
    const error = await rejectsWith(page.PWAKit.share({ files: [new Blob(['ok']), bad] }), {
      code: 'invalid_payload', module: 'share', details: { path: 'payload.files', index: 1 }
    });
    if (error.cause !== undefined) assert.equal(error.cause, boom);
  }
  assert.equal(page.native.posted.length, 0);
});

test('the native answer is final, and a malformed one is invalid_message', async () => {
  const navigator = fakeNavigator();
  const page = sharePage({ navigator });
  const off = page.PWAKit.share({ text: 'x' });
  page.failWith((await postedAfter(page)).id, 'unavailable', 'share is turned off');
  await rejectsWith(off, { code: 'unavailable', module: 'share', action: 'share' });
  const failed = page.PWAKit.share({ text: 'x' });
  page.failWith((await postedAfter(page, 1)).id, 'share.failed', 'no sheet');
  await rejectsWith(failed, { code: 'share.failed' });
  const malformed = page.PWAKit.share({ text: 'x' });
  page.succeed((await postedAfter(page, 2)).id, { shared: 'yes' });
  await rejectsWith(malformed, { code: 'invalid_message', details: { path: 'data.shared' } });
  const empty = page.PWAKit.share({ text: 'x' });
  page.succeed((await postedAfter(page, 3)).id);
  await rejectsWith(empty, { code: 'invalid_message', details: { path: 'data' } });
  assert.deepEqual(navigator.shared, []);
});

test('options reach the native call; an abort while files are read stops before posting', async () => {
  const page = sharePage();
  const explicit = page.PWAKit.share({ text: 'x' }, { timeout: 1500 });
  const message = await postedAfter(page);
  assert.equal(message.timeoutMs, 1500);
  page.succeed(message.id, { shared: true });
  await explicit;

  page.PWAKit.configure({ defaultTimeout: 900000 });
  const longer = page.PWAKit.share({ text: 'x' });
  assert.equal((await postedAfter(page, 1)).timeoutMs, 900000, 'a longer configured default wins');
  page.succeed(page.native.last.id, { shared: true });
  await longer;

  const controller = new AbortController();
  let release;
  const slow = blobLike({ read: () => new Promise((resolve) => { release = resolve; }) });
  const result = track(page.PWAKit.share({ files: [slow] }, { signal: controller.signal }));
  await flush();
  controller.abort();
  release(new ArrayBuffer(3));
  await flush();
  assert.equal(result.state, 'rejected');
  assert.equal(result.value.code, 'cancelled');
  assert.equal(page.native.calls.length, 2);
});

test('outside a host share uses navigator.share; a Blob becomes a named File', async () => {
  const navigator = fakeNavigator();
  const page = sharePage({ native: false, navigator });
  const photo = new File(['x'], 'p.png', { type: 'image/png' });
  const blob = new Blob(['y'], { type: 'text/plain' });
  const result = await page.PWAKit.share({ title: 'T', url: 'next', files: [photo, blob] });
  assert.deepEqual(plain(result), { shared: true });
  const [sent] = navigator.shared;
  assert.equal(sent.title, 'T');
  assert.equal(sent.url, 'https://app.example/docs/next');
  assert.equal(sent.files[0], photo, 'a File is passed as it is');
  assert.equal(sent.files[1].name, 'file-2');
  assert.equal(sent.files[1].type, 'text/plain');
  assert.equal(await sent.files[1].text(), 'y');
  assert.equal('text' in sent, false);
});

test('outside a host a dismissed sheet (AbortError) is {shared: false}; other errors map by name', async () => {
  const abort = new DOMException('dismissed', 'AbortError');
  let page = sharePage({ native: false, navigator: fakeNavigator({ outcome: abort }) });
  assert.deepEqual(plain(await page.PWAKit.share({ text: 'x' })), { shared: false });

  const cases = [
    [new DOMException('no activation', 'NotAllowedError'), 'permission_denied'],
    [new TypeError('bad data'), 'invalid_payload'],
    [new DOMException('busy', 'InvalidStateError'), 'module_error'],
    ['a string', 'module_error']
  ];
  for (const [thrown, code] of cases) {
    page = sharePage({ native: false, navigator: fakeNavigator({ outcome: thrown }) });
    const error = await rejectsWith(page.PWAKit.share({ text: 'x' }), { code, module: 'share', action: 'share' });
    assert.equal(error.cause, thrown);
  }
  page = sharePage({ native: false, navigator: { share() { throw new DOMException('sync', 'NotAllowedError'); } } });
  await rejectsWith(page.PWAKit.share({ text: 'x' }), { code: 'permission_denied' });
});

test('outside a host the signal and an explicit timeout end the wait for navigator.share', async () => {
  const page = sharePage({ native: false, navigator: fakeNavigator({ outcome: 'never' }) });
  const timed = track(page.PWAKit.share({ text: 'x' }, { timeout: 5000 }));
  page.clock.advance(4999);
  await flush();
  assert.equal(timed.state, 'pending');
  page.clock.advance(1);
  await flush();
  assert.equal(timed.value.code, 'timeout');
  assert.deepEqual(plain(timed.value.details), { timeoutMs: 5000 });

  const controller = new AbortController();
  const aborted = track(page.PWAKit.share({ text: 'x' }, { signal: controller.signal }));
  await flush();
  assert.equal(aborted.state, 'pending');
  assert.equal(page.clock.scheduled, 0, 'no timer without an explicit timeout');
  controller.abort();
  await flush();
  assert.equal(aborted.value.code, 'cancelled');
});

test('outside a host a Blob cannot be shared where the browser has no File', async () => {
  const navigator = fakeNavigator();
  const page = sharePage({ native: false, navigator, file: false });
  await rejectsWith(page.PWAKit.share({ files: [new Blob(['x'])] }), {
    code: 'invalid_payload', details: { path: 'payload.files', index: 0 }
  });
  assert.deepEqual(navigator.shared, []);
  assert.equal(await page.PWAKit.canShare({ files: [new Blob(['x'])] }), false);
});

test('with neither a host nor navigator.share share rejects with unavailable and canShare is false', async () => {
  for (const navigator of [undefined, {}, { share: 'no' }, { get share() { throw new Error('hostile'); } }]) {
    const page = sharePage({ native: false, navigator });
    await rejectsWith(page.PWAKit.share({ text: 'x' }), { code: 'unavailable', module: 'share', message: /navigator\.share/ });
    assert.equal(await page.PWAKit.canShare({ text: 'x' }), false);
  }
});

test('invalid share data is invalid_payload on every path, before anything is read, posted or shared', async () => {
  const throwingTitle = { get title() { throw new Error('boom'); } };
  const hostile = new Proxy({}, { get() { throw new Error('boom'); } });
  const holes = { files: [, new Blob(['x'])] };
  const cases = [
    [null, 'payload'], [[], 'payload'], ['text', 'payload'], [42, 'payload'], [undefined, 'payload'],
    [{}, 'payload'], [{ files: [] }, 'payload'], [{ extra: 'x' }, 'payload'],
    [{ title: 1 }, 'payload.title'], [{ text: { toString: () => 'x' } }, 'payload.text'], [{ text: 'ok', url: 5 }, 'payload.url'],
    [{ url: 'http://[::1' }, 'payload.url'], [{ url: 'data:text/plain,hi' }, 'payload.url'],
    [{ url: 'javascript:alert(1)', text: 'x', files: 'no' }, 'payload.files'],
    [{ url: 'file:///etc/passwd' }, 'payload.url'], [{ url: 'blob:https://app.example/x' }, 'payload.url'],
    [{ files: 'photo.jpg' }, 'payload.files'], [{ files: [{}] }, 'payload.files'], [{ files: [null] }, 'payload.files'],
    [{ files: [{ arrayBuffer() {}, size: -1 }] }, 'payload.files'], [{ files: [{ arrayBuffer() {}, size: 1, name: 7 }] }, 'payload.files'],
    [{ files: [{ arrayBuffer() {}, size: NaN }] }, 'payload.files'],
    [{ files: [{ arrayBuffer() {}, get size() { throw new Error('boom'); } }] }, 'payload.files'],
    [holes, 'payload.files'], [throwingTitle, 'payload.title'], [hostile, 'payload.title']
  ];
  for (const native of [true, false]) {
    const navigator = fakeNavigator();
    const page = sharePage({ native, navigator });
    for (const [n, [data, path]] of cases.entries()) {
      const error = await rejectsWith(page.PWAKit.share(data), { code: 'invalid_payload', module: 'share', action: 'share' });
      assert.equal(error.details.path, path, `case #${n}`);
      assert.equal(await page.PWAKit.canShare(data), false, `canShare case #${n}`);
    }
    assert.equal(page.native.posted.length, 0);
    assert.deepEqual(navigator.shared, []);
    assert.deepEqual(navigator.asked, []);
  }
});

test('a URL is sent as written where the page cannot parse URLs', async () => {
  const page = createPage();
  const result = page.PWAKit.share({ url: 'relative/path' });
  assert.equal((await postedAfter(page)).payload.url, 'relative/path');
  page.succeed(page.native.last.id, { shared: true });
  await result;
});

test('in a host canShare asks share.canShare with the same payload', async () => {
  const page = sharePage({ navigator: fakeNavigator() });
  const result = page.PWAKit.canShare({ text: 'x', files: [new File(['ab'], 'a.txt', { type: 'text/plain' })] });
  const message = await postedAfter(page);
  assert.equal(message.module, 'share');
  assert.equal(message.action, 'canShare');
  assert.equal(message.timeoutMs, 30000);
  assert.deepEqual(plain(message.payload), { text: 'x', files: [{ name: 'a.txt', type: 'text/plain', data: 'YWI=' }] });
  page.succeed(message.id, { canShare: true });
  assert.equal(await result, true);

  const no = page.PWAKit.canShare({ url: 'https://example.com/' });
  page.succeed((await postedAfter(page, 1)).id, { canShare: false });
  assert.equal(await no, false);
  assert.deepEqual(page.window.navigator.asked, []);
});

test('canShare is false when sharing is impossible, and rejects only when the question failed', async () => {
  const page = sharePage();
  for (const code of ['unavailable', 'invalid_payload', 'unknown_module', 'unknown_action', 'permission_denied']) {
    const result = page.PWAKit.canShare({ text: 'x' });
    page.failWith((await postedAfter(page, page.native.calls.length)).id, code, 'no');
    assert.equal(await result, false, code);
  }
  const before = page.native.calls.length;
  assert.equal(await page.PWAKit.canShare({ files: [blobLike({ size: 2e6 })] }), false, 'too large to share');
  assert.equal(page.native.calls.length, before);

  const timed = page.PWAKit.canShare({ text: 'x' }, { timeout: 10 });
  await postedAfter(page, before);
  page.clock.advance(10);
  await rejectsWith(timed, { code: 'timeout', module: 'share', action: 'canShare' });
  const failed = page.PWAKit.canShare({ text: 'x' });
  page.failWith((await postedAfter(page, before + 1)).id, 'module_error', 'broken');
  await rejectsWith(failed, { code: 'module_error' });
  const malformed = page.PWAKit.canShare({ text: 'x' });
  page.succeed((await postedAfter(page, before + 2)).id, { canShare: 1 });
  await rejectsWith(malformed, { code: 'invalid_message', details: { path: 'data.canShare' } });
  await rejectsWith(page.PWAKit.canShare({ text: 'x' }, { timeout: -5 }), { code: 'invalid_message' });
});

test('outside a host canShare asks navigator.canShare, or shares no files without it', async () => {
  const navigator = fakeNavigator({ canShare: true });
  let page = sharePage({ native: false, navigator });
  assert.equal(await page.PWAKit.canShare({ text: 'x', url: '/a' }), true);
  assert.deepEqual(plain(navigator.asked), [{ text: 'x', url: 'https://app.example/a' }]);
  page = sharePage({ native: false, navigator: fakeNavigator({ canShare: false }) });
  assert.equal(await page.PWAKit.canShare({ text: 'x' }), false);
  page = sharePage({ native: false, navigator: { ...fakeNavigator(), canShare() { throw new Error('broken'); } } });
  assert.equal(await page.PWAKit.canShare({ text: 'x' }), false);
  page = sharePage({ native: false, navigator: fakeNavigator({ canShare: null }) });
  assert.equal(await page.PWAKit.canShare({ text: 'x' }), true);
  assert.equal(await page.PWAKit.canShare({ files: [new File(['x'], 'x.txt')] }), false);
});
