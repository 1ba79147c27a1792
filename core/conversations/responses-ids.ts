/**
 * The ids of a Responses object the gateway writes itself (a Responses answer translated from
 * another format), derived from the request id so they are stable for one request, in
 * OpenAI's own shapes: `resp_<request id>` for the response, `<prefix>_<request id>_<output
 * index>` for its output items (`msg_`, `rs_`, `fc_`, `ctc_`, upstreams.md §2.2). An item id
 * thereby names the response that holds it, which is how the conversation store resolves an
 * `item_reference` without an index of its own.
 */

/** The kinds of output item the gateway writes, by their id prefix. */
const itemPrefixes = { message: 'msg', reasoning: 'rs', function_call: 'fc', custom_tool_call: 'ctc' } as const;

/** An output item's `type`, for {@link outputItemIdFor}. */
export type OutputItemKind = keyof typeof itemPrefixes;

const knownPrefixes = new Set<string>(Object.values(itemPrefixes));

/** The id of the Responses object answering request `requestId`. */
export const responseIdFor = (requestId: string): string => `resp_${requestId}`;

/** The id of output item number `outputIndex`, of kind `kind`, in the answer to request `requestId`. */
export const outputItemIdFor = (kind: OutputItemKind, requestId: string, outputIndex: number): string => `${itemPrefixes[kind]}_${requestId}_${outputIndex}`;

/**
 * The id of the response an output item id of {@link outputItemIdFor} belongs to; undefined
 * for an id of another shape (an upstream's own, such as OpenAI's `msg_0183…`). Request ids
 * may hold `_`, so the prefix ends at the first `_` and the index starts after the last.
 */
export function responseIdOfItem(itemId: string): string | undefined {
  const first = itemId.indexOf('_');
  const last = itemId.lastIndexOf('_');
  if (first <= 0 || last <= first + 1 || !knownPrefixes.has(itemId.slice(0, first))) return undefined;
  if (!/^\d+$/.test(itemId.slice(last + 1))) return undefined;
  return responseIdFor(itemId.slice(first + 1, last));
}
