import type { Usage } from '../contracts/usage.js';

/**
 * The tokens a usage counts against a tokens-per-minute limit: input (cached included) plus
 * output (reasoning included), as OpenAI counts them. An operation that reports no token
 * counts (an image priced per image, a video priced per second) counts none.
 */
export function rateLimitTokensOf(usage: Usage): number {
  const tokens = Math.ceil(usage.inputTokens + usage.outputTokens);
  return Number.isSafeInteger(tokens) && tokens > 0 ? tokens : 0;
}
