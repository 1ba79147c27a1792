import { describeUpstreamError, errorForUpstreamStatus, GatewayError, readUpstreamJsonAs, retryAfterHeader, readBodyExcerpt, redactSecrets, type UpstreamResponse } from '../../core/index.js';
import { voErrorBodySchema, type VoErrorBody } from './vo-schemas.js';

/** The `error` object of an upstream error body. */
export type VoErrorDetail = VoErrorBody['error'];

// google.rpc.Code numbers with their names and the HTTP statuses google/rpc/code.proto maps
// them to; an operation's `error` carries only the number (fixture gemini-veo-operation.json).
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

/** The HTTP-like status and the status name of a google.rpc.Code, for a failed operation. */
export function describeRpcCode(code: number | null | undefined, status: string | null | undefined): { http: number; name: string } {
  const known = code === null || code === undefined ? undefined : rpcCodes[code];
  return { http: known?.[1] ?? 500, name: status ?? known?.[0] ?? 'UNKNOWN' };
}

/** The upstream error object in an error body's text, if it is one. */
export const readVoError = (text: string): VoErrorDetail | undefined => readUpstreamJsonAs(text, voErrorBodySchema)?.error;

/** The upstream's own message in an error body, for `upstreamStatusError(response, describeVoError)`. */
export function describeVoError(text: string): string | undefined {
  const error = readVoError(text);
  return error === undefined ? undefined : describeUpstreamError(error.message, error.status);
}

const detailsOf = (error: VoErrorDetail): Record<string, unknown>[] =>
  (error.details ?? []).filter((detail): detail is Record<string, unknown> => typeof detail === 'object' && detail !== null);

const typed = (detail: Record<string, unknown>, type: string): boolean => typeof detail['@type'] === 'string' && detail['@type'].endsWith(type);

/** Seconds to wait, from a `google.rpc.RetryInfo` detail (`"retryDelay": "34.4s"`, fixture gemini-error-429.json). */
function retryAfterSeconds(error: VoErrorDetail): number | undefined {
  for (const detail of detailsOf(error)) {
    if (!typed(detail, 'google.rpc.RetryInfo') || typeof detail.retryDelay !== 'string') continue;
    const seconds = Number.parseFloat(detail.retryDelay);
    if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  }
  return undefined;
}

/** A wrong key is a 400 on this upstream, told apart by its `ErrorInfo` reason (upstreams.md §1.10). */
const isKeyRefusal = (error: VoErrorDetail): boolean =>
  detailsOf(error).some((detail) => typed(detail, 'google.rpc.ErrorInfo') && typeof detail.reason === 'string' && detail.reason.startsWith('API_KEY_'));

// Upstream field names as the client sends them (spec part 2 `vo-` fields).
const clientFields = new Set(['prompt', 'image', 'lastFrame', 'durationSeconds', 'aspectRatio', 'resolution', 'sampleCount', 'negativePrompt', 'personGeneration']);

/**
 * The field an upstream refusal is about: a `google.rpc.BadRequest` field violation, else the
 * first name in backquotes in the message (the upstream writes "`negativePrompt` isn't
 * supported by this model."). A field the client sent under the same name is named as the
 * client knows it (`parameters.durationSeconds` → `durationSeconds`); anything else as the
 * upstream wrote it.
 */
function paramOf(error: VoErrorDetail): string | undefined {
  const violation = detailsOf(error)
    .filter((detail) => typed(detail, 'google.rpc.BadRequest'))
    .flatMap((detail) => (Array.isArray(detail.fieldViolations) ? detail.fieldViolations : []))
    .map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { field?: unknown }).field : undefined))
    .find((field): field is string => typeof field === 'string' && field !== '');
  const named = violation ?? /`([A-Za-z_][A-Za-z0-9_.[\]]*)`/.exec(error.message ?? '')?.[1];
  if (named === undefined) return undefined;
  const last = named.split('.').at(-1)!;
  return clientFields.has(last) ? last : named;
}

// Statuses that are the channel's trouble, not the request's; core judges them (retryable).
const channelStatuses = new Set([401, 403, 404, 408, 429]);

/**
 * The gateway error for an upstream's non-2xx answer to a submission. A refusal of the
 * request itself (400 `INVALID_ARGUMENT`, `OUT_OF_RANGE`...) goes back as a 502 with the
 * upstream's status name as the code and the field it names as `param` (spec part 2,
 * Errors), not retried: another channel would refuse it too. The channel's own trouble is
 * retryable on another channel: a refused key (a 400 on this upstream), a failed precondition
 * (region or billing of the channel's project), 401, 403, 404 for the model, 429 and 5xx.
 */
export async function voSubmitError(response: UpstreamResponse): Promise<GatewayError> {
  const status = response.statusCode;
  const excerpt = await readBodyExcerpt(response);
  const error = readVoError(excerpt);
  const message = error?.message ?? error?.status ?? `the upstream answered HTTP ${status}`;
  if (status < 400 || status >= 500 || channelStatuses.has(status)) {
    const retryAfter = (error === undefined ? undefined : retryAfterSeconds(error)) ?? retryAfterHeader(response);
    return errorForUpstreamStatus(status, message, retryAfter);
  }
  if (error !== undefined && isKeyRefusal(error)) return errorForUpstreamStatus(401, message);
  const code = error?.status ?? 'upstream_invalid_request';
  const param = error === undefined ? undefined : paramOf(error);
  return new GatewayError(502, code, `the upstream refused the task: ${redactSecrets(message)}`, {
    ...(param === undefined ? {} : { param }),
    retryable: code === 'FAILED_PRECONDITION',
  });
}
