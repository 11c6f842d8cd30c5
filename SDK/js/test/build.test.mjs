// SDK/js/pwakit.js is built from SDK/js/src/ by scripts/embed-sdk: the committed script must be
// exactly its sources joined in name order, and each source must hold one concern.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const src = join(here, '..', 'src');

test('pwakit.js is its sources joined in order (run scripts/embed-sdk after editing SDK/js/src/)', () => {
  const parts = readdirSync(src).filter((name) => name.endsWith('.js')).sort();
  assert.ok(parts.length >= 10, `only ${parts.length} source files`);
  const joined = parts.map((name) => readFileSync(join(src, name), 'utf8')).join('');
  assert.equal(joined, readFileSync(join(here, '..', 'pwakit.js'), 'utf8'));
});

test('every source after the prelude opens with its section marker', () => {
  const parts = readdirSync(src).filter((name) => name.endsWith('.js')).sort().slice(1);
  for (const name of parts) {
    const first = readFileSync(join(src, name), 'utf8').split('\n')[0];
    assert.match(first, /^ {2}\/\/ -{10,} [\w. ]+$/, `${name} starts with ${JSON.stringify(first)}`);
  }
});
