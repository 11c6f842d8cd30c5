// PWAKit.clipboard: clipboard.write / clipboard.read inside a host,
// navigator.clipboard.writeText / readText outside one.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

/** A navigator.clipboard holding `text`; `fail` makes every operation reject with it. */
function fakeNavigator({ text = '', fail, never = false } = {}) {
  const written = [];
  let reads = 0;
  const settle = (value) => {
    if (never) return new Promise(() => {});
    return fail === undefined ? Promise.resolve(value) : Promise.reject(fail);
  };
  return {
    written,
    get reads() { return reads; },
    clipboard: {
      writeText(value) { written.push(value); text = value; return settle(undefined); },
      readText() { reads += 1; return settle(text); }
    }
  };
}

test('in a host writeText posts clipboard.write {text} and resolves undefined', async () => {
  const page = createPage();
  const navigator = fakeNavigator();
  page.window.navigator = navigator;
  const result = page.PWAKit.clipboard.writeText('copied ✓');
  const message = page.native.last;
  assert.deepEqual(plain(message), {
    id: message.id, module: 'clipboard', action: 'write', payload: { text: 'copied ✓' }, timeoutMs: 30000
  });
  page.succeed(message.id, null);
  assert.equal(await result, undefined);
  const empty = page.PWAKit.clipboard.writeText('');
  assert.deepEqual(plain(page.native.last.payload), { text: '' });
  page.succeed(page.native.last.id);
  assert.equal(await empty, undefined);
  assert.deepEqual(navigator.written, [], 'the Web API is not used inside a host');
});

test('in a host readText posts clipboard.read and resolves the text, "" for null', async () => {
  const page = createPage();
  const result = page.PWAKit.clipboard.readText();
  const message = page.native.last;
  assert.deepEqual(plain(message), { id: message.id, module: 'clipboard', action: 'read', timeoutMs: 600000 });
  page.succeed(message.id, { text: 'pasted' });
  assert.equal(await result, 'pasted');
  const nothing = page.PWAKit.clipboard.readText({ timeout: 2000 });
  assert.equal(page.native.last.timeoutMs, 2000);
  page.succeed(page.native.last.id, { text: null });
  assert.equal(await nothing, '');
  const absent = page.PWAKit.clipboard.readText();
  page.succeed(page.native.last.id, {});
  assert.equal(await absent, '', 'a host leaves text out when the clipboard holds none');
});

test('a malformed clipboard.read answer is invalid_message naming what is wrong', async () => {
  const page = createPage();
  const cases = [[undefined, 'data'], [null, 'data'], ['text', 'data'], [['a'], 'data'],
    [{ text: 5 }, 'data.text'], [{ text: ['a'] }, 'data.text'], [{ text: {} }, 'data.text']];
  for (const [data, path] of cases) {
    const result = page.PWAKit.clipboard.readText();
    page.succeed(page.native.last.id, data);
    await rejectsWith(result, { code: 'invalid_message', module: 'clipboard', action: 'read', details: { path } });
  }
});

test('native errors pass through, unavailable included (no fallback)', async () => {
  const page = createPage();
  const navigator = fakeNavigator({ text: 'web' });
  page.window.navigator = navigator;
  const write = page.PWAKit.clipboard.writeText('x');
  page.failWith(page.native.last.id, 'unavailable', 'clipboard is turned off');
  await rejectsWith(write, { code: 'unavailable', module: 'clipboard', action: 'write' });
  const read = page.PWAKit.clipboard.readText();
  page.failWith(page.native.last.id, 'permission_denied', 'not granted');
  await rejectsWith(read, { code: 'permission_denied', module: 'clipboard', action: 'read' });
  assert.deepEqual(navigator.written, []);
  assert.equal(navigator.reads, 0);
});

test('outside a host PWAKit.clipboard uses navigator.clipboard', async () => {
  const page = createPage({ native: false });
  const navigator = fakeNavigator({ text: 'before' });
  page.window.navigator = navigator;
  assert.equal(await page.PWAKit.clipboard.readText(), 'before');
  assert.equal(await page.PWAKit.clipboard.writeText('after'), undefined);
  assert.deepEqual(navigator.written, ['after']);
  assert.equal(await page.PWAKit.clipboard.readText(), 'after');
  page.window.navigator = { clipboard: { readText: () => Promise.resolve(undefined) } };
  assert.equal(await page.PWAKit.clipboard.readText(), '', 'a non-string answer reads as no text');
});

test('outside a host clipboard errors map by name and keep their cause', async () => {
  const denied = new DOMException('no focus', 'NotAllowedError');
  const page = createPage({ native: false });
  page.window.navigator = fakeNavigator({ fail: denied });
  let error = await rejectsWith(page.PWAKit.clipboard.writeText('x'), {
    code: 'permission_denied', module: 'clipboard', action: 'write', message: /navigator\.clipboard\.writeText failed/
  });
  assert.equal(error.cause, denied);
  error = await rejectsWith(page.PWAKit.clipboard.readText(), { code: 'permission_denied', action: 'read' });
  assert.equal(error.cause, denied);
  page.window.navigator = { clipboard: { readText() { throw new Error('sync'); } } };
  await rejectsWith(page.PWAKit.clipboard.readText(), { code: 'module_error', message: /sync/ });
});

test('outside a host an explicit timeout and the signal end the wait', async () => {
  const page = createPage({ native: false });
  page.window.navigator = fakeNavigator({ never: true });
  const timed = track(page.PWAKit.clipboard.readText({ timeout: 100 }));
  page.clock.advance(100);
  await flush();
  assert.equal(timed.value.code, 'timeout');
  const controller = new AbortController();
  const aborted = track(page.PWAKit.clipboard.writeText('x', { signal: controller.signal }));
  controller.abort(new Error('left'));
  await flush();
  assert.equal(aborted.value.code, 'cancelled');
  assert.equal(aborted.value.cause.message, 'left');
  assert.equal(page.clock.scheduled, 0);
});

test('with neither a host nor navigator.clipboard both reject with unavailable', async () => {
  const navigators = [undefined, {}, { clipboard: null }, { clipboard: {} },
    { get clipboard() { throw new Error('hostile'); } }, { clipboard: { get writeText() { throw new Error('x'); }, readText: 1 } }];
  for (const navigator of navigators) {
    const page = createPage({ native: false });
    if (navigator !== undefined) page.window.navigator = navigator;
    await rejectsWith(page.PWAKit.clipboard.writeText('x'), { code: 'unavailable', module: 'clipboard', action: 'write' });
    await rejectsWith(page.PWAKit.clipboard.readText(), { code: 'unavailable', module: 'clipboard', action: 'read' });
  }
});

test('writeText refuses anything but a string on every path, before posting or writing', async () => {
  for (const native of [true, false]) {
    const page = createPage({ native });
    const navigator = fakeNavigator();
    page.window.navigator = navigator;
    for (const text of [undefined, null, 42, true, {}, ['a'], { toString: () => 'x' }, new String('boxed'), Symbol('s'), 1n]) {
      await rejectsWith(page.PWAKit.clipboard.writeText(text), {
        code: 'invalid_payload', module: 'clipboard', action: 'write', details: { path: 'payload.text' }
      });
    }
    await rejectsWith(page.PWAKit.clipboard.writeText('x', { timeout: 0 }), { code: 'invalid_message' });
    await rejectsWith(page.PWAKit.clipboard.readText(7), { code: 'invalid_message', details: { path: 'options' } });
    assert.equal(page.native.posted.length, 0);
    assert.deepEqual(navigator.written, []);
  }
});

test('text over the message limit is payload_too_large in a host; the browser takes it as it is', async () => {
  const huge = 'é'.repeat(600 * 1024);
  const page = createPage();
  const error = await rejectsWith(page.PWAKit.clipboard.writeText(huge), { code: 'payload_too_large', module: 'clipboard' });
  assert.equal(error.details.path, 'payload');
  assert.equal(page.native.posted.length, 0);
  const web = createPage({ native: false });
  const navigator = fakeNavigator();
  web.window.navigator = navigator;
  await web.PWAKit.clipboard.writeText(huge);
  assert.equal(navigator.written[0].length, huge.length);
});

test('the clipboard object is frozen', () => {
  const page = createPage();
  assert.equal(Object.isFrozen(page.PWAKit.clipboard), true);
  assert.deepEqual(Object.keys(page.PWAKit.clipboard), ['writeText', 'readText']);
});
