import { allPaths, assemble, validParts, valueAt, withValueAt } from '../fuzz-request.js';
import type { InputClass } from '../input-class.js';

// Names every JavaScript object answers to. A lookup table keyed by what a client wrote finds
// them unless it asks for its own entries (core's `ownEntry`): a file named `a.constructor`
// was once typed by Object's constructor, and a wn2.7 media type `constructor` was a 500.
const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', 'prototype', '__defineGetter__'];

/** Inherited names: string values, field names, file names, extensions, parameters and form fields that name what every object inherits. */
export const inheritedNames: InputClass = {
  name: 'inherited-names',
  seed: 0x5eed0009,
  generate(random, route, environment) {
    const parts = validParts(route, environment);
    const name = () => random.pick(names);
    // A value as a client could write it: the bare name, a file or URL ending in it, or a type.
    const value = (original: unknown) =>
      random.pick([
        name(),
        `file.${name()}`,
        `image/${name()}`,
        typeof original === 'string' && original.includes('.') ? `${original.slice(0, original.lastIndexOf('.'))}.${name()}` : `${name()}.${name()}`,
      ]);
    if (parts.json !== undefined && random.chance(0.8)) {
      let json: unknown = parts.json;
      for (let count = random.between(1, 3); count > 0; count -= 1) {
        const paths = allPaths(json).slice(1);
        if (paths.length === 0) break;
        const at = random.pick(paths);
        if (random.chance(0.3)) {
          // A key of that name beside the others.
          const parent = at.slice(0, -1);
          const holder = valueAt(json, parent);
          if (typeof holder === 'object' && holder !== null && !Array.isArray(holder)) json = withValueAt(json, [...parent, name()], random.pick(['x', 1, true, {}]));
        } else if (typeof valueAt(json, at) === 'string' || random.chance(0.2)) {
          json = withValueAt(json, at, value(valueAt(json, at)));
        }
      }
      // `__proto__` as a key only survives as JSON text, so a raw body carries it too.
      const payload = random.chance(0.15) ? JSON.stringify(json).replace(/^\{/, `{"__proto__":{"${name()}":1},`) : undefined;
      const request = assemble({ ...parts, json: json as Record<string, unknown> });
      return payload === undefined ? request : { ...request, payload };
    }
    if (parts.form !== undefined && random.chance(0.8)) {
      const fields = { ...parts.form.fields };
      for (const field of Object.keys(fields)) if (random.chance(0.4)) fields[field] = value(fields[field]);
      if (random.chance(0.3)) fields[name()] = 'x';
      const file = parts.form.file === undefined ? undefined : { ...parts.form.file, name: value(parts.form.file.name), type: random.chance(0.5) ? name() : parts.form.file.type };
      return assemble({ ...parts, form: { fields, file } });
    }
    const params = Object.fromEntries(Object.keys(parts.params).map((param) => [param, random.chance(0.6) ? value(parts.params[param]) : parts.params[param]!]));
    const query: Record<string, string> = { ...parts.query };
    for (const key of Object.keys(query)) if (random.chance(0.5)) query[key] = value(query[key]);
    if (random.chance(0.3)) query[name()] = 'x';
    return assemble({ ...parts, params, query });
  },
};
