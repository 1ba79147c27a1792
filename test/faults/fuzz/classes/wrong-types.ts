import type { SeededRandom } from '../seeded-random.js';
import { allPaths, assemble, validParts, valueAt, withValueAt } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';

const wrongValues: unknown[] = [null, true, false, 0, -1, 1.5, -0.5, 2 ** 31, '', 'x', '1', 'true', 'null', [], [null], [1, 'a'], {}, { a: 1 }, [[]], { '': '' }];
const wrongParams = ['abc', '-1', '0', '1.5', '1e309', '', ' ', 'null', 'undefined', '[]', '{}', '0x10', '00001', '9'.repeat(30), 'true', '-0', 'NaN'];

/** Wrong types: any value, parameter or form field replaced by one of another type; extra fields. */
export const wrongTypes: InputClass = {
  name: 'wrong-types',
  seed: 0x5eed0002,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    if (parts.json !== undefined && random.chance(0.8)) {
      if (random.chance(0.15)) return { ...assemble(parts), payload: JSON.stringify(random.pick(wrongValues)) };
      let json: unknown = parts.json;
      for (let count = random.between(1, 3); count > 0; count -= 1) {
        const paths = allPaths(json);
        if (random.chance(0.2)) {
          const objects = paths.filter((path) => typeof valueAt(json, path) === 'object' && valueAt(json, path) !== null && !Array.isArray(valueAt(json, path)));
          if (objects.length === 0) continue;
          const at = random.pick(objects);
          json = withValueAt(json, [...at, random.pick(['unknown_field', 'model', 'stream', 'n', 'id', 'status', 'messages', 'contents', 'input'])], random.pick(wrongValues));
        } else {
          json = withValueAt(json, random.pick(paths.slice(1).length > 0 ? paths.slice(1) : paths), random.pick(wrongValues));
        }
      }
      return assemble({ ...parts, json: json as Record<string, unknown> });
    }
    if (parts.form !== undefined && random.chance(0.7)) {
      const fields = { ...parts.form.fields };
      const names = [...Object.keys(fields), 'temperature', 'timestamp_granularities[]', 'n', 'seconds', 'size', 'language', 'prompt', 'mask', 'unknown'];
      for (let count = random.between(1, 3); count > 0; count -= 1) fields[random.pick(names)] = random.pick(['', 'x', '-1', '1e999', 'NaN', 'true', '[]', '{}', 'null', 'ｊｓｏｎ', 'verbose_json']);
      const file = random.chance(0.3) ? undefined : random.chance(0.5) ? { ...parts.form.file!, field: random.pick(['file', 'image', 'image[]', 'mask', 'other']) } : parts.form.file;
      return assemble({ ...parts, form: { fields, file } });
    }
    const params = Object.fromEntries(Object.keys(parts.params).map((name) => [name, random.pick(wrongParams)]));
    const query: Record<string, string> = { ...parts.query };
    for (const name of [...Object.keys(query), 'p', 'size', 'id', 'status_only', 'alt', 'key', 'limit']) if (random.chance(0.4)) query[name] = random.pick(wrongParams);
    const request = assemble({ ...parts, params, query });
    if (random.chance(0.3)) request.url += `&${random.pick(['p=1&p=2', 'size[]=1', 'id[]=a&id[]=b', 'a[b][c]=d', 'p', '=', '&&&'])}`;
    return request;
  },
};
