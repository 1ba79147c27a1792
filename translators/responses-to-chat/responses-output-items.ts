import { outputItemIdFor } from '../../core/index.js';
import type { ChatLogprobs } from '../shared/chat-answer.js';
import { customToolInput, type DeclaredTool } from './to-chat-tools.js';

// The output items of a Responses object, in the shapes and key order of the recorded real
// answers (fixtures openai-responses-stream-text.sse, openai-responses-nonstream-reasoning.json,
// openai-custom-text-tool.chunks.txt) and of the `OutputItem` schema of OpenAI's OpenAPI
// description, which requires `logprobs` and `annotations` on output text and `status` on
// messages.

/** Where an item stands: `incomplete` when the answer stopped at its token limit or a filter. */
export type ItemStatus = 'in_progress' | 'completed' | 'incomplete';

/** One token of `output_text.logprobs`. */
export interface ResponsesLogprob {
  token: string;
  logprob: number;
  bytes: number[];
  top_logprobs: { token: string; logprob: number; bytes: number[] }[];
}

/** A content part of a message item. */
export type MessagePart =
  | { type: 'output_text'; annotations: []; logprobs: ResponsesLogprob[]; text: string }
  | { type: 'refusal'; refusal: string };

const utf8Bytes = (token: string): number[] => [...Buffer.from(token, 'utf8')];

/** A chat choice's log probabilities as `output_text.logprobs` (the same fields; `bytes` filled in where a family leaves them null). */
export function toResponsesLogprobs(logprobs: ChatLogprobs): ResponsesLogprob[] {
  return (logprobs?.content ?? []).map((entry) => ({
    token: entry.token,
    logprob: entry.logprob,
    bytes: entry.bytes ?? utf8Bytes(entry.token),
    top_logprobs: (entry.top_logprobs ?? []).map((top) => ({ token: top.token, logprob: top.logprob, bytes: top.bytes ?? utf8Bytes(top.token) })),
  }));
}

export const outputTextPart = (text: string, logprobs: ResponsesLogprob[] = []): MessagePart => ({ type: 'output_text', annotations: [], logprobs, text });

export const messageItem = (id: string, status: ItemStatus, content: MessagePart[]) => ({ id, type: 'message' as const, status, content, role: 'assistant' as const });

/** A reasoning item, in the recorded key order (openai-responses-nonstream-reasoning.json). */
export interface ReasoningItem {
  id: string;
  type: 'reasoning';
  /** The family's opaque reasoning token (a chat `reasoning_details` signature, such as gx's thoughtSignature). */
  encrypted_content?: string;
  summary: { type: 'summary_text'; text: string }[];
}

/**
 * The model's thoughts as a reasoning item with one summary part per text (a family's
 * thinking text is the nearest thing it has to a summary; none for an item that only carries
 * a signature), and `encryptedContent` when the family signed what comes after it.
 */
export function reasoningItem(id: string, summary: string[], encryptedContent?: string): ReasoningItem {
  const parts = summary.map((text) => ({ type: 'summary_text' as const, text }));
  return encryptedContent === undefined ? { id, type: 'reasoning', summary: parts } : { id, type: 'reasoning', encrypted_content: encryptedContent, summary: parts };
}

/** A function call: `arguments` is the JSON text the model wrote. */
export interface FunctionCallItem {
  id: string;
  type: 'function_call';
  status: ItemStatus;
  arguments: string;
  call_id: string;
  name: string;
  namespace?: string;
}

/** A call of a custom tool: `input` is the free text the model wrote. */
export interface CustomToolCallItem {
  id: string;
  type: 'custom_tool_call';
  status: ItemStatus;
  call_id: string;
  input: string;
  name: string;
  namespace?: string;
}

/**
 * The output item for a chat tool call of `chatName`: a `custom_tool_call` with the input
 * when it calls a custom tool of the request, else a `function_call` with the arguments; the
 * tool's own name and namespace, not its chat name. A name the request did not declare (a
 * model's slip) comes back as the function call it is. `callArguments` is the call's whole
 * JSON text; the id is the item's, made from the request id and `outputIndex`.
 */
export function toolCallItem(
  tool: DeclaredTool | undefined,
  chatName: string,
  requestId: string,
  outputIndex: number,
  status: ItemStatus,
  callId: string,
  callArguments: string,
): FunctionCallItem | CustomToolCallItem {
  const name = tool?.name ?? chatName;
  const namespace = tool?.namespace === undefined ? {} : { namespace: tool.namespace };
  if (tool?.custom === true) {
    return { id: outputItemIdFor('custom_tool_call', requestId, outputIndex), type: 'custom_tool_call', status, call_id: callId, input: customToolInput(callArguments), name, ...namespace };
  }
  return { id: outputItemIdFor('function_call', requestId, outputIndex), type: 'function_call', status, arguments: callArguments, call_id: callId, name, ...namespace };
}

/** Any output item this translation writes. */
export type OutputItem = ReturnType<typeof messageItem> | ReasoningItem | FunctionCallItem | CustomToolCallItem;
