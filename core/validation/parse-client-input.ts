import type { z } from 'zod';
import { invalidRequest } from '../errors/error-codes.js';
import type { GatewayError } from '../errors/gateway-error.js';
import { formatYamlPath } from '../config/config-error.js';
import { valueAtPath } from './value-at-path.js';
import { clipped, quoted } from '../errors/client-text.js';

/** A field's place in the client's body, e.g. `['input', 'messages', 0, 'content']`. */
export type FieldPath = readonly (string | number)[];

/** A field's path as a client writes it: `contents[0].parts[1].image`, an odd key as `["x-y"]`. */
export const formatFieldPath = (path: readonly PropertyKey[]): string => formatYamlPath(path);

/** 400 `invalid_request` whose message starts with the field (a path, or as written): `parameters.n: expected 1 to 6`. */
export function fieldError(field: string | readonly PropertyKey[], problem: string, cause?: unknown): GatewayError {
  const name = typeof field === 'string' ? field : formatFieldPath(field);
  return invalidRequest(`${name}: ${problem}`, { param: name, cause });
}

/** How {@link parseClientFields} names a problem in its own family's words. */
export interface ClientFieldsOptions {
  /** Where the input sits in the client's body (`['input']`): named before every field. */
  prefix?: readonly PropertyKey[];
  /**
   * The message of an unknown field at `field` in the object at `objectPath` (`''` for the
   * top level); by default `unknown field "x"; check its spelling`. Say what the object takes.
   */
  unknownField?: (field: string, objectPath: string) => string;
  /** The client's own path for an issue's, where the schema reads a field in another shape (one string read as a list of one). */
  clientPath?: (path: readonly PropertyKey[]) => readonly PropertyKey[];
  /** What the input is (`query`), put before a problem of the input as a whole. */
  where?: string;
  /** For a union that failed, report the option the client meant, by its `type` (see `mostSpecificIssue`), not the union's own message. */
  explainUnions?: boolean;
}

/**
 * Parses client input with a strict schema, or throws a 400 `invalid_request` for its first
 * problem that names the field and says what to change: a missing field is `required`, an
 * unknown one is worded by `unknownField`, any other has the schema's message
 * (`metadata.content[1].role: expected user or assistant`). The path is cut short when long:
 * it holds the client's own keys.
 */
export function parseClientFields<Schema extends z.ZodType>(schema: Schema, input: unknown, options: ClientFieldsOptions = {}): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const issue = options.explainUnions === true ? mostSpecificIssue(first) : first;
  const whole = (message: string) => (options.where === undefined ? message : `${options.where}: ${message}`);
  if (issue === undefined) throw invalidRequest(whole('invalid'));
  const inputPath = options.clientPath?.(issue.path) ?? issue.path;
  const path = [...(options.prefix ?? []), ...inputPath];
  if (issue.code === 'unrecognized_keys') {
    const field = formatFieldPath([...path, issue.keys[0] ?? '']);
    throw invalidRequest(options.unknownField?.(field, formatFieldPath(path)) ?? `unknown field ${quoted(field)}; check its spelling`, { param: field });
  }
  const field = clipped(formatFieldPath(path));
  if (field === '') throw invalidRequest(whole(issue.message));
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value') && valueAtPath(input, inputPath) === undefined;
  throw fieldError(field, missing ? 'required' : issue.message);
}

/**
 * Parses the input of a route with a strict schema (see {@link parseClientFields}):
 * `name: at most 30 characters`, `unknown field "expire_time" in the body; check its spelling`.
 */
export function parseClientInput<Schema extends z.ZodType>(schema: Schema, input: unknown, where = 'body'): z.output<Schema> {
  return parseClientFields(schema, input, { where, explainUnions: true, unknownField: (field) => `unknown field ${quoted(field)} in the ${where}; check its spelling` });
}

type Issue = z.core.$ZodIssue;

/**
 * The issue to report. A union (tools, input items, content parts) fails as a whole with
 * one issue per option; the option whose `type` matched is the one the client meant, so its
 * own first issue (`tools.0.search_context_size: expected one of low, medium, high`) says
 * more than the union's summary. Options that failed on `type` itself are passed over; when
 * none is left, the union's own message stands.
 */
function mostSpecificIssue(issue: Issue | undefined): Issue | undefined {
  if (issue?.code !== 'invalid_union') return issue;
  const meant = issue.errors.find((option) => option.length > 0 && !option.some((inner) => inner.path.length === 1 && inner.path[0] === 'type') && option[0]!.path.length > 0);
  if (meant === undefined) return issue;
  const inner = mostSpecificIssue(meant[0]);
  return inner === undefined ? issue : { ...inner, path: [...issue.path, ...inner.path] };
}
