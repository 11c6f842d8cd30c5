// Page-side cost of one bridge call, measured in one run against a floor.
//
// Floor: the least a bridge client can do for one call — an id, a pending map,
// postMessage of the message object and a resolve when the response arrives.
// Ours: PWAKit.call (validation, JSON form and size check of the payload,
// timeout timer, response checks). Both talk to the same fake native handler,
// which answers synchronously through window.pwakit._handleResponse, so only
// page-side work is timed. Run: node SDK/js/bench/call-overhead.mjs
import { createRequire } from 'node:module';

const PAYLOAD = { style: 'medium', note: 'a small payload', count: 3 };
const ROUNDS = 7;

// NB: both clients run in this process's own realm (not a vm context, whose
// global-object accesses are far slower than a page's and would skew the ratio).
globalThis.webkit = {
  messageHandlers: {
    pwakit: {
      postMessage(message) {
        if (message.cancel) return;
        queueMicrotask(() => globalThis.pwakit._handleResponse({ id: message.id, success: true, data: message.payload }));
      }
    }
  }
};

function floorClient() {
  const pending = new Map();
  let counter = 0;
  const handler = {
    postMessage(message) {
      queueMicrotask(() => respond({ id: message.id, success: true, data: message.payload }));
    }
  };
  function respond(response) {
    const entry = pending.get(response.id);
    if (!entry) return;
    pending.delete(response.id);
    if (response.success) entry.resolve(response.data); else entry.reject(new Error(response.error));
  }
  return (module, action, payload) => new Promise((resolve, reject) => {
    const id = 'f' + (++counter);
    pending.set(id, { resolve, reject });
    handler.postMessage({ id, module, action, payload });
  });
}

function sdkClient() {
  createRequire(import.meta.url)('../pwakit.js');
  const { PWAKit } = globalThis;
  return (module, action, payload) => PWAKit.call(module, action, payload);
}

async function sequential(call, n) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) await call('haptics', 'impact', PAYLOAD);
  return Number(process.hrtime.bigint() - start) / n;
}

async function burst(call, n) {
  const start = process.hrtime.bigint();
  const calls = [];
  for (let i = 0; i < n; i++) calls.push(call('haptics', 'impact', PAYLOAD));
  await Promise.all(calls);
  return Number(process.hrtime.bigint() - start) / n;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function measure(kind, n) {
  const floor = floorClient();
  const ours = sdkClient();
  const run = kind === 'sequential' ? sequential : burst;
  await run(floor, n);
  await run(ours, n);
  const floorTimes = [];
  const ourTimes = [];
  for (let round = 0; round < ROUNDS; round++) {
    floorTimes.push(await run(floor, n));
    ourTimes.push(await run(ours, n));
  }
  return { floor: median(floorTimes), ours: median(ourTimes) };
}

for (const [kind, n] of [['sequential', 20000], ['burst of 1000', 1000]]) {
  const { floor, ours } = await measure(kind === 'sequential' ? 'sequential' : 'burst', n);
  console.log(`${kind.padEnd(14)} floor ${(floor / 1000).toFixed(2).padStart(6)} µs/call   ` +
    `PWAKit.call ${(ours / 1000).toFixed(2).padStart(6)} µs/call   ratio ${(ours / floor).toFixed(2)}`);
}
