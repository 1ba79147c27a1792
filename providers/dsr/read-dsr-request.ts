import { parseClientFields } from '../../core/index.js';
import { dsrRequestSchema, type DsrRequest } from './dsr-request-schema.js';

/** The path as the client wrote it: one `image` string is read as a list of one, so `image[0]` is named `image`. */
function clientPath(path: readonly PropertyKey[], fields: Record<string, unknown>): readonly PropertyKey[] {
  return path[0] === 'image' && path[1] === 0 && typeof fields.image === 'string' ? ['image', ...path.slice(2)] : path;
}

/**
 * Checks the fields of a Seedream-style request against the family's strict schema. The
 * first problem is a 400 `invalid_request` naming the field and what to send instead.
 */
export function readDsrRequest(fields: Record<string, unknown>): DsrRequest {
  return parseClientFields(dsrRequestSchema, fields, {
    clientPath: (path) => clientPath(path, fields),
    unknownField: (field) => `unknown field "${field}"; Seedream-style models do not take it (check its spelling)`,
  });
}
