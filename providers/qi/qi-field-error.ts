import { invalidRequest, type GatewayError } from '../../core/index.js';
import type { z } from 'zod';

/** Where a field sits in the client's body, e.g. `['input', 'messages', 0, 'content', 1, 'image']`. */
export type FieldPath = readonly (string | number)[];

/** The path as a client reads it: `input.messages[0].content[1].image`. */
export function formatFieldPath(path: FieldPath): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(segment)) text += text === '' ? segment : `.${segment}`;
    else text += `[${JSON.stringify(segment)}]`;
  }
  return text;
}

/** 400 `invalid_request` whose message starts with the field: `parameters.n: expected 1 to 6`. */
export function fieldError(path: FieldPath, problem: string, cause?: unknown): GatewayError {
  const field = formatFieldPath(path);
  return invalidRequest(`${field}: ${problem}`, { param: field, cause });
}

const valueAt = (value: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((current, key) => (typeof current === 'object' && current !== null ? (current as Record<PropertyKey, unknown>)[key] : undefined), value);

/** What an object at a path accepts, for the message about an unknown field in it. */
export type KnownFields = (objectPath: string) => string | undefined;

/**
 * Parses client input with a strict schema, or throws {@link fieldError} for its first
 * problem, the path under `prefix`: a missing field is `required`, an unknown one says so
 * and, when `knownFields` knows, what the object takes instead.
 */
export function parseQiField<Schema extends z.ZodType>(schema: Schema, value: unknown, prefix: FieldPath, knownFields: KnownFields = () => undefined): z.output<Schema> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw fieldError(prefix, 'invalid');
  const path = [...prefix, ...issue.path.map((segment) => (typeof segment === 'number' ? segment : String(segment)))];
  if (issue.code === 'unrecognized_keys') {
    const known = knownFields(formatFieldPath(path));
    throw fieldError([...path, issue.keys[0] ?? ''], `unknown field; check its spelling${known === undefined ? '' : ` (${known})`}`);
  }
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_value') && valueAt(value, issue.path) === undefined;
  throw fieldError(path, missing ? 'required' : issue.message);
}
