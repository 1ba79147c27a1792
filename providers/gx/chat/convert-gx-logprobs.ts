import type { ChatCompletionLogprobs } from '../../../core/index.js';
import type { GxLogprobsResult } from '../gx-schemas.js';

const utf8Bytes = (token: string): number[] => [...Buffer.from(token, 'utf8')];

/**
 * `candidates[].logprobsResult` as chat `logprobs` (asked for with `logprobs` /
 * `top_logprobs`): one entry per chosen token, with the top alternatives at that step.
 * Null when the upstream sent none.
 */
export function convertGxLogprobs(result: GxLogprobsResult | null | undefined): ChatCompletionLogprobs | null {
  const chosen = result?.chosenCandidates;
  if (chosen === undefined || chosen === null || chosen.length === 0) return null;
  return {
    content: chosen.map((candidate, step) => {
      const token = candidate.token ?? '';
      const alternatives = result?.topCandidates?.[step]?.candidates ?? [];
      return {
        token,
        logprob: candidate.logProbability ?? 0,
        bytes: utf8Bytes(token),
        top_logprobs: alternatives.map((alternative) => ({
          token: alternative.token ?? '',
          logprob: alternative.logProbability ?? 0,
          bytes: utf8Bytes(alternative.token ?? ''),
        })),
      };
    }),
    refusal: null,
  };
}
