import { invalidUpstreamAnswer, type GatewayError } from '../../core/index.js';

// OpenAI's error bodies are read with core's OpenAI-compatible kit (`readOpenAiError`,
// `openAiErrorToGatewayError`); what is this provider's own is below.

/** 502 for an answer that is not what was asked for (`audio`, `a transcript`); another channel may do better. */
export function invalidOpenAiAudioResponse(expected: string, cause?: unknown): GatewayError {
  return invalidUpstreamAnswer(expected, { cause });
}
