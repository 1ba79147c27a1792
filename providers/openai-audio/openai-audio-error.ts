import { errorForUpstreamStatus, GatewayError, invalidUpstreamAnswer } from '../../core/index.js';
import { openAiErrorBodySchema, type OpenAiErrorDetail } from './openai-audio-schemas.js';

/** The upstream's own message in an error body, for `upstreamStatusError(response, describeOpenAiAudioError)`. */
export function describeOpenAiAudioError(body: string): string | undefined {
  try {
    const parsed = openAiErrorBodySchema.safeParse(JSON.parse(body));
    return parsed.success ? describeDetail(parsed.data.error) : undefined;
  } catch {
    return undefined;
  }
}

function describeDetail(error: OpenAiErrorDetail): string | undefined {
  const label = [error.type, error.code].filter((part) => part !== undefined && part !== null && part !== '').join(', ');
  const message = error.message ?? '';
  if (message === '') return label === '' ? undefined : label;
  return label === '' ? message : `${message} (${label})`;
}

/**
 * The gateway error for an error body that arrived with HTTP 200. It carries no status, so
 * its type and code decide: rate limits and quota are 429, a bad key 401, an unknown model
 * 404, an invalid request 400, anything else a server error.
 */
export function openAiAudioErrorToGatewayError(error: OpenAiErrorDetail): GatewayError {
  const names = [error.type, typeof error.code === 'string' ? error.code : undefined];
  const status =
    typeof error.code === 'number' && error.code >= 400 && error.code <= 599
      ? error.code
      : names.some((name) => name === 'rate_limit_exceeded' || name === 'insufficient_quota')
        ? 429
        : names.some((name) => name === 'invalid_api_key' || name === 'authentication_error')
          ? 401
          : names.includes('model_not_found')
            ? 404
            : names.includes('invalid_request_error')
              ? 400
              : 500;
  return errorForUpstreamStatus(status, describeDetail(error) ?? `the upstream reported error ${status}`);
}

/** The error object of a parsed JSON body, when the body is an error (`{"error": {...}}`). */
export function readOpenAiAudioError(json: unknown): OpenAiErrorDetail | undefined {
  if (typeof json !== 'object' || json === null || !('error' in json)) return undefined;
  const error = (json as { error: unknown }).error;
  if (error === null || error === undefined) return undefined;
  const parsed = openAiErrorBodySchema.safeParse(json);
  return parsed.success ? parsed.data.error : { message: typeof error === 'string' ? error : 'the upstream reported an error in an unknown shape' };
}

/** 502 for an answer that is not what was asked for (`audio`, `a transcript`); another channel may do better. */
export function invalidOpenAiAudioResponse(expected: string, cause?: unknown): GatewayError {
  return invalidUpstreamAnswer(expected, { cause });
}
