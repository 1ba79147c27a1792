import { z } from 'zod';
import { describeUpstreamError } from './upstream-error.js';
import { readUpstreamJsonAs } from './upstream-json.js';

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
export const arkErrorBodySchema = z.looseObject({ error: arkErrorDetailSchema });

/** The error object of an Ark error body, if the text is one. */
export const readArkErrorBody = (text: string): ArkErrorDetail | undefined => readUpstreamJsonAs(text, arkErrorBodySchema)?.error;

/** Ark's message with its code: `The parameter ... is not valid (InvalidParameter)`. */
export const describeArkError = (error: ArkErrorDetail | undefined): string | undefined => describeUpstreamError(error?.message, error?.code);

/**
 * True for Ark's safety-filter codes: `InputTextSensitiveContentDetected`,
 * `InputImageSensitiveContentDetected`, `OutputImageSensitiveContentDetected`,
 * `OutputVideoSensitiveContentDetected` (upstreams.md §3.1–§3.3) and any other
 * `...SensitiveContentDetected`: a moderation refusal.
 */
export function isArkSensitiveContent(code: string | null | undefined): boolean {
  return typeof code === 'string' && code.endsWith('SensitiveContentDetected');
}
