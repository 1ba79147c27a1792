import { randomUUID } from 'node:crypto';
import type { ChatCompletionToolCall } from '../../../core/index.js';
import type { GxPart } from '../gx-schemas.js';

/**
 * A `functionCall` part as a chat tool call: `args` serialized as the JSON string clients
 * expect, and a fresh id `call_<32 hex digits>`, since the upstream usually sends none
 * (upstreams.md §1.5) and a replayed call is matched by name anyway.
 */
export function toChatToolCall(part: GxPart): ChatCompletionToolCall {
  return {
    id: `call_${randomUUID().replaceAll('-', '')}`,
    type: 'function',
    function: { name: part.functionCall?.name ?? '', arguments: JSON.stringify(part.functionCall?.args ?? {}) },
  };
}
