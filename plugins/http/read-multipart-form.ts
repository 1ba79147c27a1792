import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { ImageUpload } from '../../core/contracts/image-requests.js';
import { invalidRequest } from '../../core/errors/error-codes.js';
import { GatewayError } from '../../core/errors/gateway-error.js';
import { bodyLimitOf, bodyTooLarge } from './body-limit.js';
import { quoted } from '../../core/errors/client-text.js';

/** Form fields that carry numbers; a multipart body sends every field as text. */
const numericFields = new Set(['n', 'seed', 'guidance_scale', 'duration']);

/**
 * The parts of a multipart request, with the whole body held to the route's body limit
 * (`server.body_limit_mb`): the multipart parser bounds each part but not their sum, and a
 * body with no declared length (chunked) is not stopped before it is read. Once more bytes
 * came than the limit, the parse fails with 413 `body_too_large` (the part being read too),
 * the rest of the body is dropped unread into memory, and the answer closes the connection.
 * What a request can hold in memory is therefore at most the body limit, whatever the
 * per-part limits add up to.
 */
export function boundedParts(request: FastifyRequest): AsyncIterable<Multipart> {
  const limit = bodyLimitOf(request);
  const raw = request.raw;
  const parts = request.parts();
  // The first step starts the parser, which pipes the request into itself. Only then may the
  // count listen: a 'data' listener before the pipe would start the flow and lose bytes.
  const first = parts.next();
  first.catch(() => {});
  let received = 0;
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received <= limit) return;
    raw.off('data', count);
    // A request 'error' is how @fastify/multipart learns that the body failed: it unpipes
    // its parser and fails the part being read and the iteration with this error.
    raw.emit('error', bodyTooLarge(limit));
    raw.resume();
  };
  raw.on('data', count);
  raw.once('end', () => raw.off('data', count));
  return (async function* () {
    const step = await first;
    if (step.done === true) return;
    yield step.value;
    yield* parts;
  })();
}

/**
 * Reads a multipart request (images, video) into the JSON shape of its route: text fields as
 * properties (numbers for `n`, `seed`, `guidance_scale` and `duration` when they are numeric;
 * a field sent twice becomes a list), files as `uploads` in the order they came. The multipart limits
 * registered with the route bound every part, and {@link boundedParts} the whole body; a file
 * over `maxFileBytes` rejects with a 413 that names the file and the limit.
 */
export async function readMultipartForm(request: FastifyRequest, maxFileBytes: number): Promise<Record<string, unknown> & { uploads: ImageUpload[] }> {
  const fields: Record<string, unknown> = {};
  const uploads: ImageUpload[] = [];
  try {
    for await (const part of boundedParts(request)) {
      if (part.type === 'file') {
        const data = await part.toBuffer().catch((error: unknown) => {
          if ((error as { code?: string }).code !== 'FST_REQ_FILE_TOO_LARGE') throw error;
          throw new GatewayError(413, 'file_too_large', `the file ${quoted(part.filename)} is larger than the limit of ${maxFileBytes} bytes; send a smaller file`);
        });
        uploads.push({ field: part.fieldname, filename: part.filename, mimeType: part.mimetype, data });
        continue;
      }
      const text = typeof part.value === 'string' ? part.value : String(part.value);
      const value = numericFields.has(part.fieldname) && text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
      const previous = fields[part.fieldname];
      fields[part.fieldname] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
    }
  } catch (error) {
    throw formError(error);
  }
  return { ...fields, uploads };
}

/** The client error for a form that could not be read: over the registered limits, or not a valid multipart body (no boundary, cut short). */
function formError(error: unknown): GatewayError {
  if (GatewayError.is(error)) return error;
  switch ((error as { code?: string }).code) {
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
      return invalidRequest(`the form has more parts than the endpoint takes: ${(error as Error).message}`, { cause: error });
    case 'FST_PROTO_VIOLATION':
      return invalidRequest('the form has a field name that is not allowed', { cause: error });
    default:
      return invalidRequest(`the multipart body could not be read: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The body of a route that takes JSON or multipart: the form read by {@link readMultipartForm},
 * or the JSON body without an `uploads` field, since a JSON body must not pose as a multipart
 * one (`uploads` is the gateway's own field).
 */
export async function readJsonOrMultipart(request: FastifyRequest, maxFileBytes: number): Promise<unknown> {
  if (request.isMultipart()) return readMultipartForm(request, maxFileBytes);
  const body = request.body;
  if (typeof body !== 'object' || body === null || !('uploads' in body)) return body;
  const { uploads: _ignored, ...rest } = body as Record<string, unknown>;
  return rest;
}
