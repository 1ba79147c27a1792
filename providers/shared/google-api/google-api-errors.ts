import { z } from 'zod';
import { upstreamDeniedNamedResource, type GatewayError } from '../../../core/index.js';
import { createStatusErrorMapper, describeUpstreamError, readUpstreamJsonAs, redactSecrets, type UpstreamErrorDialect } from '../../../core/kit/index.js';

// The error dialect of Google's APIs (reference upstreams.md §1.10): an error body
// `{"error": <google.rpc.Status>}` whose `details` carry typed messages (`RetryInfo`,
// `ErrorInfo`, `BadRequest`), for the providers whose upstream speaks it.

/** A google.rpc.Status, the `error` of an error body or of a failed operation; loose, as every upstream body is read. */
export const googleRpcStatusSchema = z.looseObject({
  code: z.number().nullish(),
  message: z.string().nullish(),
  status: z.string().nullish(),
  details: z.array(z.unknown()).nullish(),
});

/** A google.rpc.Status as read. */
export type GoogleRpcStatus = z.output<typeof googleRpcStatusSchema>;

/** An error body: `{"error": {code, message, status, details}}`. */
export const googleErrorBodySchema = z.looseObject({ error: googleRpcStatusSchema });

/** An error body as read. */
type GoogleErrorBody = z.output<typeof googleErrorBodySchema>;

// google.rpc.Code numbers with their names and the HTTP statuses google/rpc/code.proto maps
// them to; a failed operation's `error` carries only the number (fixture gemini-veo-operation.json).
const rpcCodes: Record<number, [name: string, http: number]> = {
  1: ['CANCELLED', 499],
  2: ['UNKNOWN', 500],
  3: ['INVALID_ARGUMENT', 400],
  4: ['DEADLINE_EXCEEDED', 504],
  5: ['NOT_FOUND', 404],
  6: ['ALREADY_EXISTS', 409],
  7: ['PERMISSION_DENIED', 403],
  8: ['RESOURCE_EXHAUSTED', 429],
  9: ['FAILED_PRECONDITION', 400],
  10: ['ABORTED', 409],
  11: ['OUT_OF_RANGE', 400],
  12: ['UNIMPLEMENTED', 501],
  13: ['INTERNAL', 500],
  14: ['UNAVAILABLE', 503],
  15: ['DATA_LOSS', 500],
  16: ['UNAUTHENTICATED', 401],
};

const httpOfName = new Map(Object.values(rpcCodes));

/**
 * The HTTP status and the name of a google.rpc code, given by number or by name (500 and
 * `UNKNOWN` for neither): for an error that came without an HTTP status line.
 */
export function describeGoogleRpcCode(code: number | null | undefined, status: string | null | undefined): { http: number; name: string } {
  const known = code === null || code === undefined ? undefined : rpcCodes[code];
  return { http: known?.[1] ?? httpOfName.get(status ?? '') ?? 500, name: status ?? known?.[0] ?? 'UNKNOWN' };
}

/** The status's `details` of the given type (`google.rpc.RetryInfo`), as records. */
export function googleErrorDetails(error: Pick<GoogleRpcStatus, 'details'>, type: string): Record<string, unknown>[] {
  return (error.details ?? []).filter(
    (detail): detail is Record<string, unknown> => typeof detail === 'object' && detail !== null && typeof (detail as Record<string, unknown>)['@type'] === 'string' && ((detail as Record<string, unknown>)['@type'] as string).endsWith(type),
  );
}

/** Seconds to wait, from a `google.rpc.RetryInfo` detail (`"retryDelay": "34.4s"`, fixture gemini-error-429.json). */
export function googleRetryAfterSeconds(error: Pick<GoogleRpcStatus, 'details'>): number | undefined {
  for (const detail of googleErrorDetails(error, 'google.rpc.RetryInfo')) {
    const seconds = typeof detail.retryDelay === 'string' ? Number.parseFloat(detail.retryDelay) : Number.NaN;
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  }
  return undefined;
}

/**
 * Whether the status refuses the channel's key: an `ErrorInfo` whose reason is `API_KEY_...`.
 * Google answers a wrong key with 400 `INVALID_ARGUMENT` (upstreams.md §1.10), but the key is
 * the channel's, so it is the channel's failure (401), not a mistake of the client's.
 */
export const googleKeyRefused = (error: Pick<GoogleRpcStatus, 'details'>): boolean =>
  googleErrorDetails(error, 'google.rpc.ErrorInfo').some((detail) => typeof detail.reason === 'string' && detail.reason.startsWith('API_KEY_'));

/**
 * The request's error for a 403 that refuses something the request names rather than the
 * channel, else undefined. Google's refusals of a key or a project carry an `ErrorInfo` with
 * a reason (`API_KEY_SERVICE_BLOCKED`, `SERVICE_DISABLED`); "You do not have permission to
 * access the File … or it may not exist" (a file the client names in `fileData`) or a tuned
 * model of another project carries none, and a client must not open the circuit with it.
 */
export function googleNamedResourceDenial(status: number, error: GoogleRpcStatus | undefined): GatewayError | undefined {
  if (status !== 403 || error === undefined || googleErrorDetails(error, 'google.rpc.ErrorInfo').length > 0) return undefined;
  return upstreamDeniedNamedResource(redactSecrets(describeUpstreamError(error.message, error.status) ?? 'PERMISSION_DENIED'));
}

/** The error object in an error body's text, if it is one. */
export const readGoogleErrorText = (text: string): GoogleRpcStatus | undefined => readUpstreamJsonAs(text, googleErrorBodySchema)?.error;

/** The upstream's own words for an error: `message (STATUS)`. */
const describeGoogleError = (error: GoogleRpcStatus): string | undefined => describeUpstreamError(error.message, error.status);

/** The upstream's own words in an error body's text, undefined for a body that is none. */
export function describeGoogleErrorText(text: string): string | undefined {
  const error = readGoogleErrorText(text);
  return error === undefined ? undefined : describeGoogleError(error);
}

/** Google's error body read for its words alone: each status judged as the status line says (see `createStatusErrorMapper`). */
export const googleErrorWords: UpstreamErrorDialect<GoogleErrorBody> = { errorSchema: googleErrorBodySchema, describe: (body) => describeGoogleError(body.error) };

/**
 * The gateway error for a Google API's non-2xx answer (see `createStatusErrorMapper`), with
 * the upstream's message, the `RetryInfo` delay when there is no `Retry-After` header, a
 * refused channel key judged as 401, and a refusal of something the request names as the
 * request's (`googleNamedResourceDenial`).
 */
export const googleStatusError = createStatusErrorMapper<GoogleErrorBody>({
  ...googleErrorWords,
  retryAfterSeconds: (body) => googleRetryAfterSeconds(body.error),
  statusOf: (body) => (googleKeyRefused(body.error) ? 401 : undefined),
  errorOf: (body, status) => googleNamedResourceDenial(status, body.error),
});
