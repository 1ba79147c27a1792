import { errorForUpstreamStatus, GatewayError, readBodyExcerpt, type UpstreamResponse, invalidUpstreamAnswer } from '../../core/index.js';
import { giErrorBodySchema, type GiErrorDetail } from './gi-schemas.js';

// gpt-image refuses a prompt or image with 400 `moderation_blocked` (type
// `image_generation_user_error`); dall-e and the Responses image tool say
// `content_policy_violation`.
const blockedCodes = new Set(['moderation_blocked', 'content_policy_violation']);

/** The upstream's error object in a body, if it is an error body (`{"error": ...}`, an object or a bare message). */
export function readGiError(body: unknown): GiErrorDetail | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (error === null || error === undefined) return undefined;
  const parsed = giErrorBodySchema.safeParse(body);
  if (parsed.success) return parsed.data.error;
  return { message: typeof error === 'string' ? error : 'the upstream reported an error in an unknown shape' };
}

function describe(error: GiErrorDetail | undefined): string | undefined {
  if (error === undefined) return undefined;
  const label = [error.type, error.code].filter((part) => part !== undefined && part !== null && part !== '').join(', ');
  const message = error.message ?? '';
  if (message === '') return label === '' ? undefined : label;
  return label === '' ? message : `${message} (${label})`;
}

/** 400 `prompt_blocked`: the upstream's safety system refused the prompt or an image; not retried elsewhere. */
export function giPromptBlocked(error: GiErrorDetail): GatewayError {
  const detail = error.message === undefined || error.message === null || error.message === '' ? '' : `: ${error.message}`;
  return new GatewayError(400, 'prompt_blocked', `the upstream's safety system blocked this request${detail}; change the prompt or the images`);
}

/** Whether an upstream error is a safety refusal. */
export const isGiModerationBlock = (error: GiErrorDetail): boolean => typeof error.code === 'string' && blockedCodes.has(error.code);

/**
 * The gateway error for the upstream's non-2xx answer: a safety refusal becomes
 * `prompt_blocked`; anything else is judged by its status (`errorForUpstreamStatus`) with
 * the upstream's own message, `Retry-After` passed on.
 */
export async function giStatusError(response: UpstreamResponse): Promise<GatewayError> {
  const excerpt = await readBodyExcerpt(response);
  let error: GiErrorDetail | undefined;
  try {
    error = readGiError(JSON.parse(excerpt));
  } catch {
    error = undefined;
  }
  if (error !== undefined && isGiModerationBlock(error)) return giPromptBlocked(error);
  const retryAfter = Number(response.headers['retry-after']);
  return errorForUpstreamStatus(
    response.statusCode,
    describe(error) ?? `the upstream answered HTTP ${response.statusCode}`,
    Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : undefined,
  );
}

/** The gateway error for an error body that came with HTTP 200. */
export function giInBandError(error: GiErrorDetail): GatewayError {
  if (isGiModerationBlock(error)) return giPromptBlocked(error);
  return errorForUpstreamStatus(typeof error.code === 'number' && error.code >= 400 ? error.code : 500, describe(error) ?? 'the upstream reported an error');
}

/** 502 for an answer that is not an images answer; another channel may do better. */
export function invalidGiResponse(cause?: unknown): GatewayError {
  return invalidUpstreamAnswer('an images answer', { cause });
}

/** 502 `empty_response`: the upstream answered without any image. Nothing is billed; another channel may do better. */
export function emptyGiResponse(): GatewayError {
  return new GatewayError(502, 'empty_response', 'the upstream returned no image; retry the request', { retryable: true });
}
