import type { SeededRandom } from '../seeded-random.js';
import { urlOf, validParts } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';

const junk = ['{', '}', '[', ']', '"', ',', ':', '\\', ' ', '\u0000', '\n', 'x', '0', '-', 'e', '.', "'", '/*', '*/', '//'];

function breakJsonText(random: SeededRandom, text: string): string {
  switch (random.int(12)) {
    case 0:
      return text.slice(0, random.int(text.length));
    case 1: {
      const at = random.int(text.length + 1);
      return text.slice(0, at) + random.pick(junk) + text.slice(at);
    }
    case 2: {
      const at = random.int(text.length);
      return text.slice(0, at) + text.slice(at + 1);
    }
    case 3:
      return text.replace(/"/, '');
    case 4:
      return `\ufeff${text}`;
    case 5:
      return text.replace(/}$/, ',}').replace(/]/, ',]');
    case 6:
      return text.replace(/:(\s*)("[^"]*"|\d+|true|false|null)/, random.pick([':NaN', ':Infinity', ':-Infinity', ':undefined', ':01', ':.5', ':+1', ':0x1F', ":'single'"]));
    case 7:
      return text.replaceAll('"', "'");
    case 8:
      return `/* comment */${text}// trailing`;
    case 9:
      return text.replace(/^{/, random.pick(['{"__proto__":{"polluted":true},', '{"constructor":{"prototype":{"polluted":true}},', '{"model":1,']));
    case 10:
      return random.pick(['', ' ', 'null', '[', '{', '"', '{"a":', '[[[[[[[[', '{}}', 'true false', `${text}${text}`, '\u0000']);
    default:
      return text.replace(/[{[]/g, (bracket) => (random.chance(0.3) ? '' : bracket));
  }
}

/** Broken JSON: cut, spliced, single-quoted, commented, with literals JSON does not have, prototype keys. */
export const brokenJson: InputClass = {
  name: 'broken-json',
  seed: 0x5eed0001,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    const text = JSON.stringify(parts.json ?? (parts.form === undefined ? { any: 'body' } : parts.form.fields));
    let broken = breakJsonText(random, text);
    if (random.chance(0.3)) broken = breakJsonText(random, broken);
    const headers = { ...parts.headers, 'content-type': random.pick(['application/json', 'application/json; charset=utf-8', 'application/merge-patch+json']) };
    return { method: route.method === 'GET' && random.chance(0.5) ? 'POST' : route.method, url: urlOf(parts), headers, payload: broken };
  },
};
