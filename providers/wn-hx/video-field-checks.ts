import { z } from 'zod';
import { invalidRequest, type GatewayError } from '../../core/index.js';

/** 400 `invalid_request` whose message starts with the field's path: `metadata.parameters.duration: expected 2 to 15`. */
export function fieldError(path: string, problem: string): GatewayError {
  return invalidRequest(`${path}: ${problem}`, { param: path });
}

/** A zod issue path as a client reads it: `metadata.input.media[2].url`. */
export function joinFieldPath(prefix: string, segments: readonly PropertyKey[]): string {
  let path = prefix;
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += path === '' ? String(segment) : `.${String(segment)}`;
  }
  return path;
}

const valueAt = (value: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((current, key) => (typeof current === 'object' && current !== null ? (current as Record<PropertyKey, unknown>)[key] : undefined), value);

/**
 * Parses client input with a strict schema, or throws {@link fieldError} for its first
 * problem: a missing field is `required`, an unknown one is named with `unknownHint` (what
 * the object at that path takes instead).
 */
export function parseVideoFields<Schema extends z.ZodType>(schema: Schema, value: unknown, unknownHint: (objectPath: string) => string): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const path = joinFieldPath('', issue.path);
  if (issue.code === 'unrecognized_keys') throw fieldError(joinFieldPath(path, [issue.keys[0] ?? '']), `unknown field; ${unknownHint(path)}`);
  throw fieldError(path, valueAt(value, issue.path) === undefined ? 'required' : issue.message);
}

const maxSeed = 2_147_483_647;

/** A yes or no setting of the client's body. */
export const booleanField = z.boolean({ error: 'expected true or false' });

/** A seed the upstream takes (spec part 2: a whole number from 0 to 2147483647). */
export const seedField = z
  .int({ error: `expected a whole number from 0 to ${maxSeed}` })
  .min(0, { error: `expected a whole number from 0 to ${maxSeed}` })
  .max(maxSeed, { error: `expected a whole number from 0 to ${maxSeed}` });
