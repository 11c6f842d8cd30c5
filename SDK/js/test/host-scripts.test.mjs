// The scripts the host injects beside the SDK (SDK/js/host/): the isolated-world relay and the
// page-world shim, filled in as BridgeScripts fills them and run against a small fake world.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';

const here = dirname(fileURLToPath(import.meta.url));
const template = (name) => readFileSync(join(here, '..', 'host', name), 'utf8');

const ORIGIN = 'app://demo';
const MESSAGE = 'pwakit:message';
const ANSWER = 'pwakit:answer';

/** Fills `__PWAKIT_NAME__` as BridgeScripts.fill does: one pass, unknown names left alone. */
function fill(text, values) {
  return text.replace(/__PWAKIT_([A-Z_]+?)__/g, (whole, name) => (name in values ? values[name] : whole));
}

function relaySource({ max = 1000, batching = false, origin = ORIGIN } = {}) {
  return fill(template('relay.js'), {
    ORIGIN: JSON.stringify(origin), HANDLER: JSON.stringify('pwakit'), MAX_BYTES: String(max),
    ANSWER_EVENT: JSON.stringify(ANSWER), MESSAGE_EVENT: JSON.stringify(MESSAGE), LATE_ANSWER: '__pwakitLateAnswer',
    BATCH_CHARACTERS: '65536', BATCH_MESSAGES: '256', BATCHING: batching ? 'true' : 'false',
  });
}

function shimSource({ origin = ORIGIN } = {}) {
  return fill(template('page-shim.js'), {
    ORIGIN: JSON.stringify(origin), HANDLER: JSON.stringify('pwakit'),
    ANSWER_EVENT: JSON.stringify(ANSWER), MESSAGE_EVENT: JSON.stringify(MESSAGE),
  });
}

/** A top frame at `app://demo` with a native handler that records posts and answers `reply`. */
function world({ reply = () => '', webkit = true } = {}) {
  const posted = [];
  const answers = [];
  const document = new EventTarget();
  document.addEventListener(ANSWER, (event) => answers.push(event.detail));
  const context = {
    document, EventTarget, CustomEvent, JSON, Array, Object, TypeError, String, Math, Date, Uint32Array,
    location: { protocol: 'app:', host: 'demo' },
    crypto: { getRandomValues: (array) => { array.fill(7); return array; } },
    queueMicrotask,
  };
  context.window = context;
  context.top = context;
  if (webkit) {
    context.webkit = {
      messageHandlers: { pwakit: { postMessage: (message) => { posted.push(message); return Promise.resolve(reply(message)); } } },
    };
  }
  vm.createContext(context);
  const send = (text) => document.dispatchEvent(new CustomEvent(MESSAGE, { detail: text }));
  return { context, posted, answers, send, run: (source) => vm.runInContext(source, context) };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('every __PWAKIT_ name in the templates is one the host fills', () => {
  for (const [name, source] of [['relay.js', relaySource()], ['page-shim.js', shimSource()]]) {
    assert.doesNotMatch(source, /__PWAKIT_[A-Z_]+__/, `${name} keeps an unfilled name`);
  }
});

test('the relay posts message text and hands the reply back', async () => {
  const page = world({ reply: (message) => JSON.stringify({ id: JSON.parse(message).id, success: true }) });
  page.run(relaySource());
  page.send('{"id":"1","module":"platform","action":"getInfo"}');
  await settle();
  assert.deepEqual(page.posted, ['{"id":"1","module":"platform","action":"getInfo"}']);
  assert.deepEqual(page.answers, ['{"id":"1","success":true}']);
  page.send({ not: 'text' });
  await settle();
  assert.equal(page.posted.length, 1, 'only strings cross');
});

test('the relay refuses an oversized message before it leaves the page', async () => {
  const page = world();
  page.run(relaySource({ max: 100 }));
  const big = JSON.stringify({ id: 'big', module: 'm', action: 'a', payload: 'é'.repeat(80) });
  page.send(big);
  page.send('x'.repeat(200));
  await settle();
  assert.deepEqual(page.posted, []);
  const [withId, withoutId] = page.answers.map((text) => JSON.parse(text));
  assert.equal(withId.id, 'big');
  assert.equal(withId.code, 'payload_too_large');
  assert.deepEqual(withId.details, { limit: 100, size: Buffer.byteLength(big, 'utf8') });
  assert.equal(withoutId.type, 'bridge.error');
  assert.equal(withoutId.data.code, 'payload_too_large');
});

test('with batching, messages of one task cross together and late answers reach only their document', async () => {
  const page = world({ reply: () => '[]' });
  page.run(relaySource({ batching: true }));
  page.send('{"id":"a"}');
  page.send('{"id":"b"}');
  await settle();
  page.send('{"id":"c"}');
  await settle();
  assert.equal(page.posted.length, 2);
  assert.deepEqual([...page.posted[0].messages], ['{"id":"a"}', '{"id":"b"}']);
  assert.equal(typeof page.posted[0].document, 'string');
  assert.equal(page.posted[1], '{"id":"c"}', 'a lone message is posted as its text');
  page.context.__pwakitLateAnswer('someone-else', '{"id":"x"}');
  page.context.__pwakitLateAnswer(page.posted[0].document, '{"id":"b","success":true}');
  assert.deepEqual(page.answers.filter((text) => text !== '[]'), ['{"id":"b","success":true}']);
});

test('the relay and the shim do nothing outside the top frame of the bound origin', async () => {
  const page = world();
  const real = page.context.webkit;
  page.run(relaySource({ origin: 'app://other' }));
  page.run(shimSource({ origin: 'app://other' }));
  page.send('{"id":"1"}');
  await settle();
  assert.deepEqual(page.posted, []);
  // NB: the shim always installs a handler with a postMessage function, so only identity shows it stayed out.
  assert.equal(page.context.webkit, real, 'the real handler is untouched at another origin');
  const framed = world();
  const framedReal = framed.context.webkit;
  framed.context.top = {};
  framed.run(relaySource());
  framed.run(shimSource());
  framed.send('{"id":"1"}');
  await settle();
  assert.deepEqual(framed.posted, []);
  assert.equal(framed.context.webkit, framedReal, 'the real handler is untouched in a frame');
  // NB: and the same world at the bound origin's top frame is shimmed, so the checks above can fail.
  const bound = world();
  const boundReal = bound.context.webkit;
  bound.run(shimSource());
  assert.notEqual(bound.context.webkit, boundReal);
});

test('the shim rebuilds the seed handler and routes answers and events to window.pwakit', () => {
  const page = world({ webkit: false });
  const messages = [];
  page.context.document.addEventListener(MESSAGE, (event) => messages.push(event.detail));
  page.run(shimSource());
  const handler = page.context.webkit.messageHandlers.pwakit;
  handler.postMessage({ id: '1', module: 'platform', action: 'getInfo' });
  handler.postMessage('{"id":"2"}');
  assert.deepEqual(messages, ['{"id":"1","module":"platform","action":"getInfo"}', '{"id":"2"}']);
  assert.throws(() => handler.postMessage(undefined), TypeError);
  const seen = [];
  page.context.pwakit = {
    _handleResponse: (value) => seen.push(['response', value.id]),
    _handleEvent: (value) => seen.push(['event', value.type]),
  };
  const answer = (text) => page.context.document.dispatchEvent(new CustomEvent(ANSWER, { detail: text }));
  answer('{"id":"1","success":true}');
  answer('{"type":"push","data":{}}');
  answer('[{"id":"3","success":true},{"type":"bridge.error"}]');
  answer('not json');
  answer('{"id":"4"');
  assert.deepEqual(seen, [['response', '1'], ['event', 'push'], ['response', '3'], ['event', 'bridge.error']]);
  // The page cannot replace the handler.
  assert.throws(() => { 'use strict'; page.context.webkit = {}; });
  assert.equal(Object.isFrozen(page.context.webkit.messageHandlers), true);
});
