import t from 'tap';
import { exceedsJsonDepth, parseEmbeddedJson } from '../../../core/validation/json-depth.js';

t.test('an object or array is one level, a scalar none; the deepest branch counts', async (t) => {
  t.equal(exceedsJsonDepth('text', 0), false);
  t.equal(exceedsJsonDepth(null, 0), false);
  t.equal(exceedsJsonDepth({}, 0), true);
  t.equal(exceedsJsonDepth({}, 1), false);
  t.equal(exceedsJsonDepth({ a: [1, 2, { b: 'x' }], c: 3 }, 3), false);
  t.equal(exceedsJsonDepth({ a: [1, 2, { b: 'x' }], c: 3 }, 2), true);
  t.equal(exceedsJsonDepth([[], [[[]]], []], 3), true, 'one deep branch among shallow ones');
  t.equal(exceedsJsonDepth([[], [[[]]], []], 4), false);
});

t.test('a million levels are measured without exhausting the stack', async (t) => {
  const deep = JSON.parse('['.repeat(1_000_000) + ']'.repeat(1_000_000)) as unknown;
  t.equal(exceedsJsonDepth(deep, 64), true);
  t.equal(exceedsJsonDepth(deep, 1_000_000), false);
});

t.test('JSON inside a string: parsed, refused as too deep past 64 levels, or reported as not JSON', async (t) => {
  t.same(parseEmbeddedJson('{"city":"Oslo"}'), { kind: 'json', value: { city: 'Oslo' } });
  t.same(parseEmbeddedJson('['.repeat(64) + ']'.repeat(64)).kind, 'json');
  t.same(parseEmbeddedJson('['.repeat(65) + ']'.repeat(65)), { kind: 'too-deep' });
  t.same(parseEmbeddedJson('{"city":'), { kind: 'invalid' });
});
