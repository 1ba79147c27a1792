import { z } from 'zod';

import { upstreamModelUnknown, type GatewayError } from '../../../core/index.js';
import { describeUpstreamError, errorForUpstreamBody, readUpstreamJsonAs, type UpstreamErrorDialect } from '../../../core/kit/index.js';
// The error dialect of DashScope-format upstreams (reference upstreams.md §4.1), for the
// providers whose upstream speaks it: an error body `{request_id, code, message}`, and codes
// that arrive without a status (in a body sent with HTTP 200, or on a failed task).

/** DashScope's error body `{request_id, code, message}`; loose, as every upstream body is read. */
const dashScopeErrorBodySchema = z.looseObject({
  request_id: z.string().nullish(),
  code: z.string().nullish(),
  message: z.string().nullish(),
});

/** A DashScope error body as read. */
export type DashScopeErrorBody = z.output<typeof dashScopeErrorBodySchema>;

/** The error body in an upstream answer's text, if it is one: JSON of that shape with a code or a message. */
export function readDashScopeErrorBody(text: string): DashScopeErrorBody | undefined {
  const body = readUpstreamJsonAs(text, dashScopeErrorBodySchema);
  return (body?.code ?? body?.message) ? body : undefined;
}

/** The upstream's own words for an error: `message (code)`. */
export const describeDashScopeError = (error: { code?: string | null; message?: string | null }): string | undefined => describeUpstreamError(error.message, error.code);

/**
 * Codes DashScope answers when its moderation refused the input or the output:
 * `DataInspectionFailed` (upstreams.md §4.1), `IPInfringementSuspect` and
 * `CustomRoleBlocked` (DashScope's error-code table), and the snake-case spelling of its
 * OpenAI-compatible mode.
 */
const moderationCodes = new Set(['DataInspectionFailed', 'IPInfringementSuspect', 'CustomRoleBlocked', 'data_inspection_failed']);

/** Whether a code means DashScope's moderation refused the prompt, an input or the output. */
export const isDashScopeModerationCode = (code: string | null | undefined): boolean => typeof code === 'string' && moderationCodes.has(code);

/**
 * Codes DashScope answers about one model, not the account: `ModelNotFound`, and
 * `Model.AccessDenied` or `AccessDenied.Unpurchased` for a model the account may not use
 * (upstreams.md §4.1). On a channel serving a pattern a client can name any model, so these
 * are the request's fault, never the channel's.
 */
const modelCodes = new Set(['ModelNotFound', 'Model.AccessDenied', 'AccessDenied.Unpurchased']);

/** Whether a code says the upstream does not know the model or does not let this account use it. */
const isDashScopeModelCode = (code: string | null | undefined): boolean => typeof code === 'string' && modelCodes.has(code);

/**
 * The HTTP status a DashScope error code stands for (the code table of upstreams.md §4.1),
 * for codes that arrive without one: a failed task's `output.code`, or an error body sent
 * with HTTP 200. An account in arrears is the channel's trouble, like a refused key.
 */
export function dashScopeCodeStatus(code: string): number {
  if (code === 'InvalidApiKey') return 401;
  if (code === 'Arrearage' || code.startsWith('AccessDenied') || code.endsWith('.AccessDenied')) return 403;
  if (code === 'ModelNotFound') return 404;
  if (code.startsWith('Throttling')) return 429;
  if (code === 'RequestTimeOut') return 504;
  if (code === 'ModelUnavailable' || code === 'ServiceUnavailable') return 503;
  if (code.startsWith('Invalid') || code.startsWith('BadRequest') || code.startsWith('DataInspection') || code.startsWith('IPInfringement') || code === 'data_inspection_failed') return 400;
  return 500;
}

/** DashScope's error body, judged by its status in DashScope's words, except a code about the model alone (see {@link dashScopeError}). */
const dashScopeErrorDialect: UpstreamErrorDialect<DashScopeErrorBody> = {
  errorSchema: dashScopeErrorBodySchema,
  describe: describeDashScopeError,
  errorOf: (error, _status, message) => (isDashScopeModelCode(error.code) ? upstreamModelUnknown(message) : undefined),
};

/**
 * The gateway error for a DashScope `error` (a body's, or a code sent with HTTP 200) with
 * the `status` it came with or stands for: a code about the model alone
 * (`isDashScopeModelCode`) is `upstreamModelUnknown`, tried on another channel but never the
 * channel's failure; anything else is judged by its status (see `errorForUpstreamStatus`), in
 * DashScope's own words.
 */
export const dashScopeError = (status: number, error: DashScopeErrorBody | undefined, retryAfterSeconds?: number): GatewayError =>
  errorForUpstreamBody(status, error, dashScopeErrorDialect, retryAfterSeconds);

/** A non-2xx answer, from its status, its body's first 64 KiB and its `Retry-After` delay, judged by the body's code and the status (see {@link dashScopeError}). */
export const dashScopeStatusError = (status: number, bodyText: string, retryAfterSeconds?: number): GatewayError => dashScopeError(status, readDashScopeErrorBody(bodyText), retryAfterSeconds);
