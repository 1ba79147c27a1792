import { assemble, withValueAt, type FuzzRequest, type RequestParts } from './fuzz-request.js';
import type { FieldPath } from './fuzz-routes.js';

/** A marker put in a template and swapped for raw JSON text after serialising (deep nesting, number literals JSON.stringify cannot write). */
const rawMarker = '"\u0000raw\u0000"';

/** The request of the parts with `raw` (JSON text) at `path`. */
export function withRawJson(parts: RequestParts, path: FieldPath, raw: string): FuzzRequest {
  const json = withValueAt(parts.json, path, '\u0000raw\u0000') as Record<string, unknown>;
  const request = assemble({ ...parts, json });
  request.payload = String(request.payload).replace(rawMarker, raw);
  return request;
}
