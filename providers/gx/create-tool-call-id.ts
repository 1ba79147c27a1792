import { randomUUID } from 'node:crypto';

/** A fresh chat tool call id, `call_` and 32 hex digits: the upstream's calls carry no usable id. */
export function createToolCallId(): string {
  return `call_${randomUUID().replaceAll('-', '')}`;
}
