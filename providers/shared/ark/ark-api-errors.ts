import { z } from 'zod';

import { createStatusErrorMapper, describeUpstreamError, readUpstreamJsonAs, type UpstreamErrorDialect } from '../../../core/kit/index.js';
// The error dialect of Ark-format upstreams (reference upstreams.md §3.1), for the providers
// whose upstream speaks it: an error body `{"error": {code, message, param, type}}`, the same
// object on a failed task or image, and safety-filter codes ending in `SensitiveContentDetected`.

/** The `error` object of an Ark error body, a failed task or a failed image; loose, as every upstream body is read. */
export const arkErrorDetailSchema = z.looseObject({
  code: z.string().nullish(),
  message: z.string().nullish(),
  param: z.string().nullish(),
  type: z.string().nullish(),
});

/** An Ark error object as read. */
export type ArkErrorDetail = z.output<typeof arkErrorDetailSchema>;

/** An error body: `{"error": {...}}`. */
const arkErrorBodySchema = z.looseObject({ error: arkErrorDetailSchema });

/** The error object of an Ark error body, if the text is one. */
export const readArkErrorBody = (text: string): ArkErrorDetail | undefined => readUpstreamJsonAs(text, arkErrorBodySchema)?.error;

/** Ark's message with its code: `The parameter ... is not valid (InvalidParameter)`. */
export const describeArkError = (error: ArkErrorDetail | undefined): string | undefined => describeUpstreamError(error?.message, error?.code);

/** Ark's error body, each status judged as its status line says in Ark's words (see `createStatusErrorMapper`). */
export const arkErrorDialect: UpstreamErrorDialect<z.output<typeof arkErrorBodySchema>> = { errorSchema: arkErrorBodySchema, describe: (body) => describeArkError(body.error) };

/** The gateway error for an Ark upstream's non-2xx answer: its status judged, with Ark's message. */
export const arkStatusError = createStatusErrorMapper(arkErrorDialect);

/**
 * True for Ark's safety-filter codes: `InputTextSensitiveContentDetected`,
 * `InputImageSensitiveContentDetected`, `OutputImageSensitiveContentDetected`,
 * `OutputVideoSensitiveContentDetected` (upstreams.md §3.1–§3.3) and any other
 * `...SensitiveContentDetected`: a moderation refusal.
 */
export function isArkSensitiveContent(code: string | null | undefined): boolean {
  return typeof code === 'string' && code.endsWith('SensitiveContentDetected');
}

// Ark's `type` names the HTTP status class of an error (upstreams.md §3.1).
const typeStatuses: Readonly<Record<string, number>> = { BadRequest: 400, Unauthorized: 401, Forbidden: 403, NotFound: 404, TooManyRequests: 429, InternalServerError: 500 };

/**
 * The HTTP status an Ark error object stands for when it arrives without one (an error in a
 * 200 answer): by its `type`, else by its code (upstreams.md §3.1's pairs), else 500. An
 * unknown model is 404 and a refused parameter 400, so neither counts as the channel's failure.
 */
export function arkErrorStatus(error: ArkErrorDetail): number {
  const byType = typeof error.type === 'string' ? typeStatuses[error.type] : undefined;
  if (byType !== undefined) return byType;
  const code = error.code ?? '';
  if (code === 'AuthenticationError') return 401;
  if (code === 'AccessDenied') return 403;
  if (code.startsWith('InvalidEndpointOrModel') || code === 'ModelNotOpen') return 404;
  if (code.startsWith('RateLimitExceeded') || code === 'QuotaExceeded' || code === 'ServerOverloaded') return 429;
  if (code.startsWith('InvalidParameter') || code.startsWith('MissingParameter')) return 400;
  return 500;
}
