import { invalidUpstreamAnswer, type GatewayError } from '../../core/index.js';

// OpenAI's error bodies are read with core's OpenAI-compatible kit (`readOpenAiError`,
// `openAiErrorToGatewayError`); what is gp's own is below.

/** 502 for an upstream answer that is not what was asked for (`a chat completion`, `a response`); another channel may do better. */
export function invalidGpResponse(cause?: unknown, expected = 'a chat completion'): GatewayError {
  return invalidUpstreamAnswer(expected, { cause });
}
