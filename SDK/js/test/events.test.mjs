import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPage, plain } from '../test-support/harness.mjs';

test('an event reaches on() listeners and the DOM as pwa:<type>', () => {
  const page = createPage();
  const seen = [];
  const dom = page.domEvents('push');
  page.PWAKit.on('push', (data) => seen.push(plain(data)));
  assert.equal(page.emit({ type: 'push', data: { type: 'received', title: 'Hi' } }), true);
  assert.deepEqual(seen, [{ type: 'received', title: 'Hi' }]);
  assert.deepEqual(plain(dom), [{ type: 'received', title: 'Hi' }]);
});

test('the DOM event is a CustomEvent with the data as detail', () => {
  const page = createPage();
  let received;
  page.window.addEventListener('pwa:visibility', (event) => { received = event; });
  page.emit({ type: 'visibility', data: { visible: false } });
  assert.ok(received instanceof CustomEvent);
  assert.equal(received.type, 'pwa:visibility');
  assert.deepEqual(plain(received.detail), { visible: false });
});

test('an event without data delivers undefined; other types are not woken', () => {
  const page = createPage();
  const calls = [];
  page.PWAKit.on('loaded', (data) => calls.push(['loaded', data]));
  page.PWAKit.on('push', (data) => calls.push(['push', data]));
  page.emit({ type: 'loaded' });
  assert.deepEqual(calls, [['loaded', undefined]]);
});

test('on() returns an unsubscribe function', () => {
  const page = createPage();
  const seen = [];
  const unsubscribe = page.PWAKit.on('tick', (n) => seen.push(n));
  page.emit({ type: 'tick', data: 1 });
  unsubscribe();
  unsubscribe();
  page.emit({ type: 'tick', data: 2 });
  assert.deepEqual(seen, [1]);
});

test('once() fires a single time and can be unsubscribed before it fires', () => {
  const page = createPage();
  const seen = [];
  page.PWAKit.once('tick', (n) => seen.push(['once', n]));
  const cancelled = page.PWAKit.once('tick', (n) => seen.push(['cancelled', n]));
  cancelled();
  page.emit({ type: 'tick', data: 1 });
  page.emit({ type: 'tick', data: 2 });
  assert.deepEqual(seen, [['once', 1]]);
});

test('off() removes a listener added with on() or once()', () => {
  const page = createPage();
  const seen = [];
  const a = (n) => seen.push(['a', n]);
  const b = (n) => seen.push(['b', n]);
  page.PWAKit.on('tick', a);
  page.PWAKit.once('tick', b);
  assert.equal(page.PWAKit.off('tick', a), true);
  assert.equal(page.PWAKit.off('tick', b), true);
  assert.equal(page.PWAKit.off('tick', a), false);
  assert.equal(page.PWAKit.off('other', a), false);
  page.emit({ type: 'tick', data: 1 });
  assert.deepEqual(seen, []);
});

test('adding the same listener twice registers it once, as the DOM does', () => {
  const page = createPage();
  let count = 0;
  const fn = () => { count += 1; };
  page.PWAKit.on('tick', fn);
  page.PWAKit.on('tick', fn);
  page.emit({ type: 'tick' });
  assert.equal(count, 1);
});

test('listeners run in registration order and changes during dispatch apply to the next event', () => {
  const page = createPage();
  const order = [];
  const late = () => order.push('late');
  let removeThird;
  page.PWAKit.on('tick', () => {
    order.push('first');
    page.PWAKit.on('tick', late);
    removeThird();
  });
  page.PWAKit.on('tick', () => order.push('second'));
  removeThird = page.PWAKit.on('tick', () => order.push('third'));
  page.emit({ type: 'tick' });
  assert.deepEqual(order, ['first', 'second']);
  order.length = 0;
  page.emit({ type: 'tick' });
  assert.deepEqual(order, ['first', 'second', 'late']);
});

test('a throwing listener is reported and the others still run', () => {
  const page = createPage();
  const seen = [];
  const failure = new Error('listener broke');
  page.PWAKit.on('tick', () => { throw failure; });
  page.PWAKit.on('tick', (n) => seen.push(n));
  const dom = page.domEvents('tick');
  assert.equal(page.emit({ type: 'tick', data: 7 }), true);
  assert.deepEqual(seen, [7]);
  assert.deepEqual(dom, [7]);
  assert.deepEqual(page.reported, [failure]);
});

test('on(), once() and off() refuse bad arguments', () => {
  const page = createPage();
  for (const method of ['on', 'once', 'off']) {
    assert.throws(() => page.PWAKit[method]('', () => {}), /type must be a non-empty string/);
    assert.throws(() => page.PWAKit[method](5, () => {}), /type must be a non-empty string/);
    assert.throws(() => page.PWAKit[method]('tick', 'fn'), /listener must be a function/);
  }
});

const malformedEvents = [
  ['undefined', undefined],
  ['null', null],
  ['a number', 3],
  ['an array', [{ type: 'tick' }]],
  ['a string that is not JSON', 'tick'],
  ['an object without type', { data: 1 }],
  ['an empty type', { type: '' }],
  ['a numeric type', { type: 1 }],
  ['a null type', { type: null, data: 1 }]
];

for (const [name, value] of malformedEvents) {
  test(`a malformed event (${name}) is reported, not thrown, and wakes nobody`, () => {
    const page = createPage();
    const diagnostics = page.watchDiagnostics();
    let woken = 0;
    page.PWAKit.on('tick', () => { woken += 1; });
    page.PWAKit.on('undefined', () => { woken += 1; });
    page.PWAKit.on('null', () => { woken += 1; });
    let returned;
    assert.doesNotThrow(() => { returned = page.emit(value); });
    assert.equal(returned, false);
    assert.equal(woken, 0);
    assert.deepEqual(diagnostics.map((d) => d.kind), ['malformed_event']);
  });
}

test('an event given as a JSON string is accepted', () => {
  const page = createPage();
  const seen = [];
  page.PWAKit.on('push', (data) => seen.push(plain(data)));
  assert.equal(page.emit(JSON.stringify({ type: 'push', data: { n: 1 } })), true);
  assert.deepEqual(seen, [{ n: 1 }]);
});

test('a hostile event object never throws out of _handleEvent', () => {
  const page = createPage();
  const diagnostics = page.watchDiagnostics();
  const hostile = {};
  Object.defineProperty(hostile, 'type', { get() { throw new Error('boom'); } });
  let returned;
  assert.doesNotThrow(() => { returned = page.emit(hostile); });
  assert.equal(returned, false);
  assert.deepEqual(diagnostics.map((d) => d.kind), ['internal_error']);
});

test('events work outside the host too (no message handler)', () => {
  const page = createPage({ native: false });
  const seen = [];
  page.PWAKit.on('tick', (n) => seen.push(n));
  page.emit({ type: 'tick', data: 1 });
  assert.deepEqual(seen, [1]);
});
