import type { ChatFinishReason } from '../../../core/index.js';

/**
 * The chat finish reason for an upstream `finishReason` (spec part 1, reference-gateway.md
 * §4.8): STOP is `stop`, MAX_TOKENS is `length`, and every other value (SAFETY, RECITATION,
 * BLOCKLIST, PROHIBITED_CONTENT, SPII, OTHER, and values added later) is `content_filter`.
 * A choice that called a function finishes with `tool_calls` whatever the upstream said:
 * the upstream ends function-call turns with STOP (upstreams.md §1.3). Undefined when the
 * upstream gave no reason and no call was made (an unfinished stream chunk).
 */
export function mapGxFinishReason(finishReason: string | null | undefined, calledFunctions: boolean): ChatFinishReason | undefined {
  if (calledFunctions) return 'tool_calls';
  if (finishReason === undefined || finishReason === null || finishReason === '') return undefined;
  if (finishReason === 'STOP') return 'stop';
  if (finishReason === 'MAX_TOKENS') return 'length';
  return 'content_filter';
}
