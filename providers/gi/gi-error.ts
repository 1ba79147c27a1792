import { z } from 'zod';
import { GatewayError, promptBlocked } from '../../core/index.js';
import { createStatusErrorMapper, errorForUpstreamStatus, invalidUpstreamAnswer } from '../../core/kit/index.js';
import { describeOpenAiError, openAiErrorDetailSchema, readOpenAiError, type OpenAiErrorDetail } from '../shared/openai-compatible/openai-compatible.js';

// gpt-image refuses a prompt or image with 400 `moderation_blocked` (type
// `image_generation_user_error`); dall-e and the Responses image tool say
// `content_policy_violation`.
const blockedCodes = new Set(['moderation_blocked', 'content_policy_violation']);

/** 400 `prompt_blocked` for a safety refusal (not retried elsewhere); undefined for any other error. */
function blockedPrompt(error: OpenAiErrorDetail | undefined): GatewayError | undefined {
  if (typeof error?.code !== 'string' || !blockedCodes.has(error.code)) return undefined;
  const detail = error.message === undefined || error.message === null || error.message === '' ? '' : `: ${error.message}`;
  return promptBlocked(`the upstream's safety system blocked this request${detail}; change the prompt or the images`);
}

/**
 * The gateway error for the upstream's non-2xx answer: a safety refusal becomes
 * `prompt_blocked`; anything else is judged by its status (`errorForUpstreamStatus`) with
 * the upstream's own message, `Retry-After` passed on.
 */
export const giStatusError = createStatusErrorMapper({
  // Read leniently: a bare `{"error": "message"}` still gives its message.
  errorSchema: z.unknown().transform(readOpenAiError).pipe(openAiErrorDetailSchema),
  describe: describeOpenAiError,
  errorOf: blockedPrompt,
});

/** The gateway error for an error body that came with HTTP 200. */
export function giInBandError(error: OpenAiErrorDetail): GatewayError {
  const status = typeof error.code === 'number' && error.code >= 400 ? error.code : 500;
  return blockedPrompt(error) ?? errorForUpstreamStatus(status, describeOpenAiError(error) ?? 'the upstream reported an error');
}

/** 502 for an answer that is not an images answer; another channel may do better. */
export const invalidGiResponse = (cause?: unknown): GatewayError => invalidUpstreamAnswer('an images answer', { cause });
