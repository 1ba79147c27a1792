import type { z } from 'zod';
import { invalidRequest } from '../../core/index.js';
import { dsrRequestSchema, type DsrRequest } from './dsr-request-schema.js';

/** A request path as clients write it: `contents[0].parts[1].image`. */
export function formatDsrField(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

const present = (input: Record<string, unknown>, path: readonly PropertyKey[]): boolean => {
  let value: unknown = input;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return false;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value !== undefined;
};

/** The path as the client wrote it: one `image` string is read as a list of one, so `image[0]` is named `image`. */
function clientPath(path: readonly PropertyKey[], fields: Record<string, unknown>): PropertyKey[] {
  if (path[0] === 'image' && path[1] === 0 && typeof fields.image === 'string') return ['image', ...path.slice(2)];
  return [...path];
}

function describeIssue(issue: z.core.$ZodIssue, fields: Record<string, unknown>): { field: string; message: string } {
  const path = clientPath(issue.path, fields);
  if (issue.code === 'unrecognized_keys') {
    const field = formatDsrField([...path, issue.keys[0] ?? '']);
    return { field, message: `unknown field "${field}"; Seedream-style models do not take it (check its spelling)` };
  }
  const field = formatDsrField(path);
  const message = present(fields, path) || path.length === 0 ? issue.message : 'required';
  return { field, message: field === '' ? message : `${field}: ${message}` };
}

/**
 * Checks the fields of a Seedream-style request against the family's strict schema. The
 * first problem is a 400 `invalid_request` naming the field and what to send instead.
 */
export function readDsrRequest(fields: Record<string, unknown>): DsrRequest {
  const result = dsrRequestSchema.safeParse(fields);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw invalidRequest('the request body is not valid for a Seedream-style model');
  const { field, message } = describeIssue(issue, fields);
  throw invalidRequest(message, field === '' ? undefined : { param: field });
}
