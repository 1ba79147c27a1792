import { describeUpstreamError, emptyUpstreamAnswer, GatewayError, invalidUpstreamAnswer, promptBlocked, readUpstreamJsonAs, upstreamStatusError, type UpstreamResponse } from '../../core/index.js';
import { dsrErrorBodySchema, type DsrErrorDetail } from './dsr-schemas.js';

/**
 * True for Ark's safety-filter codes: `InputTextSensitiveContentDetected`,
 * `InputImageSensitiveContentDetected`, `OutputImageSensitiveContentDetected` (upstreams.md
 * §3.1, §3.2) and any other `...SensitiveContentDetected`.
 */
export function isDsrSensitiveContent(code: string | null | undefined): boolean {
  return typeof code === 'string' && code.endsWith('SensitiveContentDetected');
}

/** The upstream's message with its code: `The request failed because ... (InputTextSensitiveContentDetected)`. */
export const describeDsrErrorDetail = (error: DsrErrorDetail): string | undefined => describeUpstreamError(error.message, error.code);

/** The error object of an Ark error body, if the text is one. */
export const readDsrErrorBody = (text: string): DsrErrorDetail | undefined => readUpstreamJsonAs(text, dsrErrorBodySchema)?.error;

/** 400 `prompt_blocked`: the upstream's safety filter refused the prompt, a reference image, or every image it made. Not retried. */
export function dsrPromptBlocked(error: DsrErrorDetail): GatewayError {
  const detail = describeDsrErrorDetail(error) ?? 'the content was flagged';
  return promptBlocked(`the upstream's safety filter blocked the request: ${detail}; change the prompt or the reference images`);
}

/**
 * The gateway error for a non-2xx answer: a safety-filter code is `prompt_blocked`; any other
 * becomes the gateway error for its status, with Ark's message.
 */
export async function dsrStatusError(response: UpstreamResponse): Promise<GatewayError> {
  const seen: { error?: DsrErrorDetail } = {};
  const failure = await upstreamStatusError(response, (text) => {
    seen.error = readDsrErrorBody(text);
    return seen.error === undefined ? undefined : describeDsrErrorDetail(seen.error);
  });
  return seen.error !== undefined && isDsrSensitiveContent(seen.error.code) ? dsrPromptBlocked(seen.error) : failure;
}

/** 502 `empty_response`: the upstream answered without any image; another channel, or a retry, may do better. */
export function dsrEmptyResponse(detail?: string): GatewayError {
  const why = detail === undefined ? '' : `: ${detail}`;
  return emptyUpstreamAnswer(`the upstream returned no image${why}; retry once or twice`);
}

/** 502 for a 2xx answer that is not an images response. */
export function invalidDsrResponse(cause?: unknown): GatewayError {
  return invalidUpstreamAnswer('an images response', { cause });
}
