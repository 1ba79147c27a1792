import type { SeededRandom } from '../seeded-random.js';
import { allPaths, assemble, stringPaths, validParts, valueAt, withValueAt } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';

const oddStrings = [
  '\ud800',
  '\udfff',
  'a\ud83dz',
  '\u202egnp.exe',
  'zero\u200bwidth\u200c\u200d\u2060\ufeff',
  'nul\u0000byte',
  '\u0001\u0002\u001f\u007f',
  'line\u2028para\u2029',
  'e\u0301\u0301\u0301\u0301\u0301\u0301\u0301\u0301',
  '👩‍👩‍👧‍👦🏳️‍🌈',
  'ｆｕｌｌｗｉｄｔｈ',
  'gх-2.5-рro',
  'Ω≈ç√∫',
  '\uffff\ufffe',
  '٠١٢٣',
  '\r\n\t',
  '',
];

const oddPathPieces = ['%00', '%E2%80%AE', '%F0%9F%98%80', '%ED%A0%80', '%C0%AF', '%FF%FE', '%ZZ', '%', '%2e%2e%2f', '..%2F..%2F', '\u00e9', '%0d%0aX-Injected:%201', '%E2%80%8B'];

function invalidUtf8(text: string, random: SeededRandom): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const at = random.int(bytes.length + 1);
  const bad = random.pick([Buffer.from([0xff]), Buffer.from([0xc3, 0x28]), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]), Buffer.from([0xc0, 0xaf]), Buffer.from([0x00])]);
  return Buffer.concat([bytes.subarray(0, at), bad, bytes.subarray(at)]);
}

/** Odd unicode: lone surrogates, RTL and zero-width characters, NUL and controls, homoglyphs, invalid UTF-8, odd percent-escapes in paths. */
export const oddUnicode: InputClass = {
  name: 'odd-unicode',
  seed: 0x5eed0004,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    if (parts.json !== undefined && random.chance(0.75)) {
      let json: unknown = parts.json;
      const choice = random.int(3);
      if (choice === 0) {
        for (const path of stringPaths(json)) if (random.chance(0.5)) json = withValueAt(json, path, random.pick(oddStrings) + (random.chance(0.5) ? String(valueAt(json, path)) : ''));
      } else if (choice === 1) {
        const objects = allPaths(json).filter((path) => typeof valueAt(json, path) === 'object' && valueAt(json, path) !== null && !Array.isArray(valueAt(json, path)));
        json = withValueAt(json, [...random.pick(objects), random.pick(oddStrings)], random.pick(oddStrings));
      } else {
        return { ...assemble(parts), payload: invalidUtf8(JSON.stringify(json), random) };
      }
      return assemble({ ...parts, json: json as Record<string, unknown> });
    }
    if (parts.form !== undefined && random.chance(0.7)) {
      const form = structuredClone(parts.form);
      const name = random.pick(Object.keys(form.fields));
      form.fields[name] = random.pick(oddStrings) + form.fields[name];
      if (form.file !== undefined && random.chance(0.5)) form.file.name = `${random.pick(oddStrings)}${random.chance(0.5) ? '.wav' : ''}`;
      return assemble({ ...parts, form });
    }
    const params = Object.fromEntries(Object.keys(parts.params).map((name) => [name, random.chance(0.6) ? random.pick(oddPathPieces) : encodeURIComponent(random.pick(oddStrings.filter((odd) => !/[\ud800-\udfff]/.test(odd))))]));
    const query = Object.fromEntries(
      [...Object.entries(parts.query), ['keyword', 'x']].map(([key, value]) => [key, random.chance(0.5) ? random.pick(oddPathPieces) : value]),
    );
    return assemble({ ...parts, params, query }, { params: true, query: true });
  },
};
