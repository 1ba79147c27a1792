import type { z } from 'zod';
import { invalidRequest } from '../errors/error-codes.js';
import { formatYamlPath } from '../config/config-error.js';
import { valueAtPath } from './value-at-path.js';
import { clipped, quoted } from '../errors/client-text.js';

/**
 * Parses client input with a strict schema, or throws a 400 that names the field and says
 * what to change: `name: at most 30 characters`, `unknown field "expire_time"`.
 */
export function parseClientInput<Schema extends z.ZodType>(schema: Schema, input: unknown, where = 'body'): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = mostSpecificIssue(result.error.issues[0]);
  if (issue === undefined) throw invalidRequest(`${where}: invalid`);
  // A path holds the client's own keys (an unknown field, a record key): only a prefix is repeated.
  const path = clipped(formatYamlPath(issue.path));
  if (issue.code === 'unrecognized_keys') {
    const field = formatYamlPath([...issue.path, issue.keys[0] ?? '']);
    throw invalidRequest(`unknown field ${quoted(field)} in the ${where}; check its spelling`, { param: field });
  }
  if (path === '') throw invalidRequest(`${where}: ${issue.message}`);
  const missing = (issue.code === 'invalid_type' || issue.code === 'invalid_union' || issue.code === 'invalid_value') && valueAtPath(input, issue.path) === undefined;
  const message = missing ? 'required' : issue.message;
  throw invalidRequest(`${path}: ${message}`, { param: path });
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
