import { GatewayError, type UpstreamResponse } from '../../core/index.js';
import { createStatusErrorMapper, errorForUpstreamStatus, isChannelTrouble, readBodyExcerpt, retryAfterHeader, upstreamRefusal } from '../../core/kit/index.js';
import {
  googleErrorDetails,
  googleErrorWords,
  googleKeyRefused,
  googleNamedResourceDenial,
  googleRetryAfterSeconds,
  readGoogleErrorText,
  type GoogleRpcStatus,
} from '../shared/google-api/google-api-errors.js';

// Upstream field names as the client sends them (spec part 2 `vo-` fields).
const clientFields = new Set(['prompt', 'image', 'lastFrame', 'durationSeconds', 'aspectRatio', 'resolution', 'sampleCount', 'negativePrompt', 'personGeneration']);

/**
 * The field an upstream refusal is about: a `google.rpc.BadRequest` field violation, else the
 * first name in backquotes in the message (the upstream writes "`negativePrompt` isn't
 * supported by this model."). A field the client sent under the same name is named as the
 * client knows it (`parameters.durationSeconds` → `durationSeconds`); anything else as the
 * upstream wrote it.
 */
function paramOf(error: GoogleRpcStatus): string | undefined {
  const violation = googleErrorDetails(error, 'google.rpc.BadRequest')
    .flatMap((detail) => (Array.isArray(detail.fieldViolations) ? detail.fieldViolations : []))
    .map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { field?: unknown }).field : undefined))
    .find((field): field is string => typeof field === 'string' && field !== '');
  const named = violation ?? /`([A-Za-z_][A-Za-z0-9_.[\]]*)`/.exec(error.message ?? '')?.[1];
  if (named === undefined) return undefined;
  const last = named.split('.').at(-1)!;
  return clientFields.has(last) ? last : named;
}

/**
 * The gateway error for an upstream's non-2xx answer to a submission: a refusal of the request
 * is a 502 with the upstream's status name as code and the field it names as `param`, not
 * retried (spec part 2, Errors); the channel's own trouble is retried elsewhere: a refused key
 * (a 400 here), a failed precondition (the project's region or billing), 401, a 403 with
 * an `ErrorInfo` reason, 429, 5xx; a model it lacks (404) or a 403 about something the
 * request names is tried elsewhere too, but as the request's fault.
 */
export async function voSubmitError(response: UpstreamResponse): Promise<GatewayError> {
  const status = response.statusCode;
  const excerpt = await readBodyExcerpt(response);
  const error = readGoogleErrorText(excerpt);
  const message = error?.message ?? error?.status ?? `the upstream answered HTTP ${status}`;
  const denial = googleNamedResourceDenial(status, error);
  if (denial !== undefined) return denial;
  if (isChannelTrouble(status)) {
    const retryAfter = (error === undefined ? undefined : googleRetryAfterSeconds(error)) ?? retryAfterHeader(response);
    return errorForUpstreamStatus(status, message, retryAfter);
  }
  if (error !== undefined && googleKeyRefused(error)) return errorForUpstreamStatus(401, message);
  const param = error === undefined ? undefined : paramOf(error);
  return upstreamRefusal(error?.status, `the upstream refused the task: ${message}`, { param, retryable: error?.status === 'FAILED_PRECONDITION' });
}

/**
 * The gateway error for a non-2xx answer to a poll or a download: its status judged in the
 * upstream's words, so a 404 stays a 404 (core then marks the task vanished).
 */
export const voQueryError = createStatusErrorMapper(googleErrorWords);
