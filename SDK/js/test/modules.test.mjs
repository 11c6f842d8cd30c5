// PWAKit.modules: module and action names as properties, each action a function
// that is PWAKit.call with the names filled in; hostile keys change nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import util from 'node:util';
import { createPage, flush, plain, rejectsWith, track } from '../test-support/harness.mjs';

test('an action on the proxy is PWAKit.call with the module and action filled in', async () => {
  const page = createPage();
  const controller = new AbortController();
  const result = page.PWAKit.modules.haptics.impact({ style: 'medium' }, { timeout: 5000, signal: controller.signal });
  const message = page.native.last;
  assert.deepEqual(plain(message), {
    id: message.id, module: 'haptics', action: 'impact', payload: { style: 'medium' }, timeoutMs: 5000
  });
  page.succeed(message.id, { done: true });
  assert.deepEqual(plain(await result), { done: true });

  const bare = page.PWAKit.modules.platform.getInfo();
  assert.equal(Object.prototype.hasOwnProperty.call(page.native.last, 'payload'), false);
  page.failWith(page.native.last.id, 'platform.nope', 'no');
  await rejectsWith(bare, { code: 'platform.nope', module: 'platform', action: 'getInfo' });
});

test('actions keep working detached from their module, and proxies are reused', async () => {
  const page = createPage();
  const { modules } = page.PWAKit;
  assert.equal(modules.haptics, modules.haptics);
  assert.equal(modules.haptics.impact, modules.haptics.impact);
  assert.notEqual(modules.haptics.impact, modules.haptics.selection);
  const { impact } = modules.haptics;
  assert.equal(impact.name, 'haptics.impact');
  const result = impact.call(null, { style: 'light' });
  assert.equal(page.native.last.module, 'haptics');
  assert.equal(page.native.last.action, 'impact');
  page.succeed(page.native.last.id);
  assert.equal(await result, undefined);
});

test('outside a host an action rejects with unavailable like PWAKit.call', async () => {
  const page = createPage({ native: false });
  await rejectsWith(page.PWAKit.modules.share.share({ text: 'hi' }), {
    code: 'unavailable', module: 'share', action: 'share'
  });
});

test('an action rejects bad options and payloads exactly as PWAKit.call does', async () => {
  const page = createPage();
  await rejectsWith(page.PWAKit.modules.m.a(undefined, { timeout: -1 }), {
    code: 'invalid_message', details: { path: 'options.timeout' }
  });
  const cyclic = {};
  cyclic.self = cyclic;
  await rejectsWith(page.PWAKit.modules.m.a(cyclic), { code: 'invalid_payload', details: { path: 'payload' } });
  const hostile = { get timeout() { throw new Error('boom'); } };
  await rejectsWith(page.PWAKit.modules.m.a(undefined, hostile), {
    code: 'invalid_message', details: { path: 'options.timeout' }
  });
  assert.equal(page.native.posted.length, 0);
});

test('the proxies are not thenables: awaiting them gives the proxy back and posts nothing', async () => {
  const page = createPage();
  const { modules } = page.PWAKit;
  assert.equal(modules.then, undefined);
  assert.equal(modules.haptics.then, undefined);
  assert.equal(await modules, modules);
  assert.equal(await modules.haptics, modules.haptics);
  assert.equal(await page.eval('Promise.resolve(PWAKit.modules.haptics)'), modules.haptics);
  assert.equal(page.native.posted.length, 0);
});

test('enumerating, serialising, printing and converting the proxies posts nothing', () => {
  const page = createPage();
  const { modules } = page.PWAKit;
  const haptics = modules.haptics;
  for (const proxy of [modules, haptics]) {
    assert.deepEqual(Object.keys(proxy), []);
    assert.deepEqual(Object.getOwnPropertyNames(proxy), []);
    assert.equal(JSON.stringify(proxy), '{}');
    assert.deepEqual({ ...proxy }, {});
    assert.deepEqual(Object.entries(proxy), []);
    let seen = 0;
    for (const key in proxy) seen += key.length;
    assert.equal(seen, 0);
    assert.equal(typeof util.inspect(proxy), 'string');
    assert.throws(() => structuredClone(proxy), { name: 'DataCloneError' }, 'a proxy is not cloneable, as any proxy');
  }
  assert.equal(String(modules), '[object PWAKit.modules]');
  assert.equal(`${haptics}`, '[object PWAKit.modules.haptics]');
  assert.equal(Object.prototype.toString.call(haptics), '[object PWAKit.modules.haptics]');
  assert.equal(modules.hasOwnProperty('haptics'), false);
  assert.equal('haptics' in modules, false, 'the proxy lists no module: the host decides which exist');
  assert.equal(page.eval('JSON.stringify({ m: PWAKit.modules, h: PWAKit.modules.haptics })'), '{"m":{},"h":{}}');
  assert.equal(page.native.posted.length, 0);
});

test('symbols and the names the language probes keep their ordinary meaning', () => {
  const page = createPage();
  const { modules } = page.PWAKit;
  const ObjectInPage = page.eval('Object');
  for (const proxy of [modules, modules.haptics]) {
    assert.equal(proxy.toJSON, undefined);
    assert.equal(proxy.constructor, ObjectInPage);
    assert.equal(proxy.__proto__, ObjectInPage.prototype);
    assert.equal(proxy.valueOf, ObjectInPage.prototype.valueOf);
    assert.equal(proxy.hasOwnProperty, ObjectInPage.prototype.hasOwnProperty);
    assert.equal(proxy.__lookupGetter__, ObjectInPage.prototype.__lookupGetter__);
    assert.equal(proxy[Symbol.iterator], undefined);
    assert.equal(proxy[Symbol.toPrimitive], undefined);
    assert.equal(proxy[Symbol('haptics')], undefined);
    assert.equal(proxy[''], undefined, 'the empty string names nothing');
    assert.equal(proxy['x'.repeat(129)], undefined, 'a name longer than the host accepts names nothing');
    assert.equal(proxy['é'.repeat(65)], undefined, 'the length limit is in UTF-8 bytes');
  }
  assert.equal(typeof modules['x'.repeat(128)], 'object');
  assert.equal(typeof modules.haptics['é'.repeat(64)], 'function');
  assert.equal(typeof modules[0], 'object', 'a numeric key is the string it converts to');
  assert.equal(page.native.posted.length, 0);
});

test('a polluted Object.prototype does not leak through the proxies', () => {
  const page = createPage();
  page.eval('Object.prototype.haptics = "polluted"; Object.prototype.impact = "polluted";');
  try {
    assert.equal(typeof page.PWAKit.modules.haptics, 'object');
    assert.equal(typeof page.PWAKit.modules.haptics.impact, 'function');
  } finally {
    page.eval('delete Object.prototype.haptics; delete Object.prototype.impact;');
  }
});

test('the proxies are read-only and cannot be frozen or re-prototyped', () => {
  const page = createPage();
  const { modules } = page.PWAKit;
  const haptics = modules.haptics;
  for (const proxy of [modules, haptics]) {
    assert.throws(() => { 'use strict'; proxy.haptics = 1; }, TypeError);
    assert.throws(() => Object.defineProperty(proxy, 'x', { value: 1 }), TypeError);
    assert.throws(() => { 'use strict'; delete proxy.toString; }, TypeError);
    assert.throws(() => Object.setPrototypeOf(proxy, null), TypeError);
    assert.throws(() => Object.freeze(proxy), TypeError);
    assert.equal(Reflect.set(proxy, '__proto__', null), false);
    assert.equal(Object.isExtensible(proxy), true);
  }
  assert.equal(modules.haptics, haptics);
  assert.equal(typeof haptics.impact, 'function');
});

test('many distinct names stay usable past the reuse cache', async () => {
  const page = createPage();
  const { modules } = page.PWAKit;
  for (let i = 0; i < 1000; i++) assert.equal(typeof modules['m' + i]['a' + i], 'function');
  const result = track(modules.m999.a999(7));
  assert.equal(page.native.last.module, 'm999');
  assert.equal(page.native.last.action, 'a999');
  page.succeed(page.native.last.id, 8);
  await flush();
  assert.equal(result.value, 8);
  assert.equal(page.native.posted.length, 1);
});

test('a reloaded SDK keeps the first instance and its proxy', () => {
  const page = createPage();
  const first = page.PWAKit.modules;
  page.load();
  assert.equal(page.PWAKit.modules, first);
});
