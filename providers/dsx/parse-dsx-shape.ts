import type { z } from 'zod';
import { invalidRequest, quoted } from '../../core/index.js';

/** A request path as clients write it: `metadata.content[0].image_url.url`. */
export function formatDsxPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}

/**
 * Parses a submission with a family's strict schema; the first problem is a 400 naming the
 * field: `unknown field "metadata.ratio"`, `metadata.content[1].role: expected ...`.
 */
export function parseDsxShape<Schema extends z.ZodType>(schema: Schema, input: unknown, family: string): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw invalidRequest(`the request body is not valid for ${family}`);
  if (issue.code === 'unrecognized_keys') {
    const field = formatDsxPath([...issue.path, issue.keys[0] ?? '']);
    throw invalidRequest(`unknown field ${quoted(field)}; ${family} do not take it (check its spelling and spec part 2's field table)`, { param: field });
  }
  const field = formatDsxPath(issue.path);
  const message = valueAt(input, issue.path) === undefined && issue.path.length > 0 ? 'required' : issue.message;
  throw invalidRequest(field === '' ? message : `${field}: ${message}`, field === '' ? undefined : { param: field });
}
