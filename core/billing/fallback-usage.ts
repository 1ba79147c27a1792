import { emptyUsage, type Usage } from '../contracts/usage.js';
import { requestedOutputTokens, type ChatLikeRequest } from './estimate-chat-usage.js';

/** The input side of an estimate: what a request costs when the client left while an upstream was reading it. */
export function promptOf(estimate: Usage): Usage {
  return {
    ...emptyUsage('estimated'),
    inputTokens: estimate.inputTokens,
    ...(estimate.inputModalities === undefined ? {} : { inputModalities: estimate.inputModalities }),
    ...(estimate.characters === undefined ? {} : { characters: estimate.characters }),
    ...(estimate.minutes === undefined ? {} : { minutes: estimate.minutes }),
  };
}

/**
 * The usage to bill when the upstream reported none: a provider that learned no token counts
 * reports zeros flagged `estimated`, and the gateway's own estimate of the prompt and of the
 * output it sent (characters / 4) stands instead, never nothing, and never more output than
 * the limit the client set (a guess must not charge beyond what the client allowed; without
 * a limit the model may have written any length, so the characters stand). `request` is the
 * client's request, read for its output limit.
 */
export function usageOrEstimate(usage: Usage | undefined, estimate: Usage, request: unknown, outputCharacters: () => number): Usage {
  if (usage !== undefined && (usage.source === 'upstream' || usage.inputTokens > 0 || usage.outputTokens > 0)) return usage;
  const produced = Math.ceil(outputCharacters() / 4);
  const limit = typeof request === 'object' && request !== null ? requestedOutputTokens(request as ChatLikeRequest) : undefined;
  return {
    ...estimate,
    ...usage,
    inputTokens: estimate.inputTokens,
    outputTokens: limit === undefined ? produced : Math.min(produced, limit),
    reasoningTokens: 0,
    source: 'estimated',
  };
}
