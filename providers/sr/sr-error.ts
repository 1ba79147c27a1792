import { GatewayError, videoNotFound, type UpstreamResponse } from '../../core/index.js';
import {
  errorForUpstreamStatus,
  invalidUpstreamAnswer,
  isChannelTrouble,
  readBodyExcerpt,
  redactSecrets,
  retryAfterHeader,
  upstreamRefusal,
} from '../../core/kit/index.js';
import { describeOpenAiError, readOpenAiErrorText } from '../shared/openai-compatible/openai-compatible.js';

/**
 * The gateway error for the upstream's non-2xx answer to a submission: a refusal of the
 * request passed through as spec part 2 says (502 with the upstream's code, else its `type`,
 * and `param`; not retried); a remix whose video the upstream lost (404) is 404
 * `video_not_found`, not retried, since core sends a remix only to the channel holding its
 * video; the channel's own trouble (`isChannelTrouble`) is judged by status.
 */
export async function srSubmitError(response: UpstreamResponse, remix: boolean): Promise<GatewayError> {
  const text = await readBodyExcerpt(response);
  const status = response.statusCode;
  const error = readOpenAiErrorText(text);
  if (remix && status === 404) {
    const detail = error?.message ?? `the upstream answered HTTP ${status}`;
    return videoNotFound(`remix_from_video_id: the upstream no longer has this video: ${redactSecrets(detail)}`, 'remix_from_video_id');
  }
  if (!isChannelTrouble(status)) {
    const code = (typeof error?.code === 'string' && error.code !== '' ? error.code : undefined) ?? error?.type;
    return upstreamRefusal(code, error?.message ?? `the upstream refused the video (HTTP ${status})`, { param: error?.param });
  }
  return errorForUpstreamStatus(status, describeOpenAiError(error) ?? `the upstream answered HTTP ${status}`, retryAfterHeader(response));
}

/** 502 for an answer that is not the video object the gateway asked for; `retryable` only where asking elsewhere is safe. */
export function invalidSrResponse(problem: string, retryable: boolean, cause?: unknown): GatewayError {
  return invalidUpstreamAnswer(`a video object: ${problem}`, { retryable, cause });
}

/** A failure to read a 2xx answer's body; never retried: the upstream may have started the video, and another channel would start a second. */
export function unreadAcceptance(error: unknown): GatewayError {
  if (!GatewayError.is(error)) return invalidSrResponse('the answer could not be read', false, error);
  if (!error.retryable) return error;
  return new GatewayError(error.statusCode, error.code, error.message, { cause: error, headers: error.headers, param: error.param, retryable: false });
}
