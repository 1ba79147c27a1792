import { describeArkError, emptyUpstreamAnswer, GatewayError, invalidUpstreamAnswer, isArkSensitiveContent, promptBlocked, readArkErrorBody, upstreamStatusError, type ArkErrorDetail, type UpstreamResponse } from '../../core/index.js';

/** 400 `prompt_blocked`: the upstream's safety filter refused the prompt, a reference image, or every image it made. Not retried. */
export function dsrPromptBlocked(error: ArkErrorDetail): GatewayError {
  const detail = describeArkError(error) ?? 'the content was flagged';
  return promptBlocked(`the upstream's safety filter blocked the request: ${detail}; change the prompt or the reference images`);
}

/**
 * The gateway error for a non-2xx answer: a safety-filter code is `prompt_blocked`; any other
 * becomes the gateway error for its status, with Ark's message.
 */
export async function dsrStatusError(response: UpstreamResponse): Promise<GatewayError> {
  const seen: { error?: ArkErrorDetail } = {};
  const failure = await upstreamStatusError(response, (text) => {
    seen.error = readArkErrorBody(text);
    return seen.error === undefined ? undefined : describeArkError(seen.error);
  });
  return seen.error !== undefined && isArkSensitiveContent(seen.error.code) ? dsrPromptBlocked(seen.error) : failure;
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
