import type { SeededRandom } from '../seeded-random.js';
import { allPaths, assemble, validParts } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';
import { withRawJson } from '../raw-json.js';

const nanLikes = ['NaN', 'Infinity', '-Infinity', '1e999', '-1e999', '0x1F', '  42  ', '１２３', '1_000', '4.', '.5e1', '+7', '9'.repeat(400)];

// Made once and sliced: building megabytes of text per case would make the fuzz slow, not the gateway.
const longText = 'y'.repeat(300_000);
const openBrackets = '['.repeat(20_000);
const closeBrackets = ']'.repeat(20_000);
const openObjects = '{"a":'.repeat(10_000);
const closeObjects = '}'.repeat(10_000);
const zeros = '0,'.repeat(50_000);
const manyKeys = Array.from({ length: 20_000 }, (_, index) => `"k${index}":${index}`).join(',');
const oversizePadding = 'x'.repeat(2_200_000);

function hugeRawJson(random: SeededRandom): string {
  switch (random.int(6)) {
    case 0: {
      const depth = random.between(1000, 20_000);
      return openBrackets.slice(0, depth) + closeBrackets.slice(0, depth);
    }
    case 1: {
      const depth = random.between(1000, 10_000);
      return `${openObjects.slice(0, depth * 5)}1${closeObjects.slice(0, depth)}`;
    }
    case 2:
      return random.pick(['1e999', '-1e999', '1e-999', '123456789012345678901234567890', '-0', '9007199254740993', '0.' + '1'.repeat(500), '1' + '0'.repeat(400)]);
    case 3:
      return `[${zeros.slice(0, 2 * random.between(1000, 50_000))}0]`;
    case 4: {
      const cut = manyKeys.indexOf(`"k${random.between(1000, 19_999)}"`);
      return `{${manyKeys.slice(0, cut - 1)}}`;
    }
    default:
      return JSON.stringify(random.pick(nanLikes));
  }
}

/** Huge values: long strings, deep nesting, huge and NaN-like numbers, long arrays, many keys, an oversize body, big forms. */
export const hugeValues: InputClass = {
  name: 'huge-values',
  seed: 0x5eed0003,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    if (random.chance(0.04)) {
      // Over server.body_limit_mb (2 MB in this gateway).
      return { ...assemble({ ...parts, json: undefined, form: undefined }), headers: { ...parts.headers, 'content-type': 'application/json' }, payload: `{"pad":"${oversizePadding}"}` };
    }
    if (parts.json !== undefined && random.chance(0.8)) {
      const inside = allPaths(parts.json).slice(1);
      const path = inside.length > 0 ? random.pick(inside) : ['pad'];
      if (random.chance(0.35)) return withRawJson(parts, path, `"${longText.slice(0, random.between(10_000, 300_000))}"`);
      return withRawJson(parts, path, hugeRawJson(random));
    }
    if (parts.form !== undefined && random.chance(0.7)) {
      const form = structuredClone(parts.form);
      switch (random.int(4)) {
        case 0:
          form.fields[random.pick(Object.keys(form.fields))] = 'z'.repeat(random.between(60_000, 200_000));
          break;
        case 1:
          for (let index = 0; index < random.between(20, 120); index += 1) form.fields[`field${index}`] = 'v';
          break;
        case 2:
          if (form.file !== undefined) form.file = { ...form.file, bytes: new Uint8Array(random.between(1_100_000, 1_500_000)) };
          break;
        default:
          if (form.file !== undefined) form.file = { ...form.file, name: `${'n'.repeat(random.between(1000, 20_000))}.wav` };
      }
      return assemble({ ...parts, form });
    }
    const long = 'q'.repeat(random.between(5_000, 60_000));
    const params = Object.fromEntries(Object.keys(parts.params).map((name) => [name, random.chance(0.5) ? long : random.pick(nanLikes)]));
    const query: Record<string, string> = { ...parts.query, [random.pick(['p', 'size', 'keyword', 'token', 'id', 'limit', 'group_id'])]: random.chance(0.5) ? long : random.pick(nanLikes) };
    return assemble({ ...parts, params, query });
  },
};
