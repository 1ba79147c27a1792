import type { z } from 'zod';
import { invalidRequest } from '../errors/error-codes.js';
import { formatYamlPath } from '../config/config-error.js';
import { valueAtPath } from './value-at-path.js';

/**
 * Parses client input with a strict schema, or throws a 400 that names the field and says
 * what to change: `name: at most 30 characters`, `unknown field "expire_time"`.
 */
export function parseClientInput<Schema extends z.ZodType>(schema: Schema, input: unknown, where = 'body'): z.output<Schema> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue === undefined) throw invalidRequest(`${where}: invalid`);
  const path = formatYamlPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const field = formatYamlPath([...issue.path, issue.keys[0] ?? '']);
    throw invalidRequest(`unknown field "${field}" in the ${where}; check its spelling`, { param: field });
  }
  if (path === '') throw invalidRequest(`${where}: ${issue.message}`);
  const message = issue.code === 'invalid_type' && valueAtPath(input, issue.path) === undefined ? 'required' : issue.message;
  throw invalidRequest(`${path}: ${message}`, { param: path });
}
