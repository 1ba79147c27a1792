import { outputItemIdFor, type StreamOutput, type StreamTranslation, type Usage } from '../../core/index.js';
import { invalidUpstreamAnswer } from '../../core/kit/index.js';
import { chatSignatures, readChatChunk, type ChatChunkDelta } from '../shared/chat-answer.js';
import { responseObject, statusForFinish, type ResponsesAnswerContext, type ResponseStatus } from './responses-object.js';
import { messageItem, reasoningItem, toResponsesLogprobs, toolCallItem, type ItemStatus, type MessagePart, type OutputItem, type ResponsesLogprob } from './responses-output-items.js';
import { declaredTools, type DeclaredTool } from './to-chat-tools.js';

type ToolCallDelta = NonNullable<ChatChunkDelta['tool_calls']>[number];
type ServedEvent = Extract<StreamOutput, { type: 'event' }>;

/** The message item being written: its current content part, and the parts before it. */
interface OpenMessage {
  kind: 'message';
  id: string;
  outputIndex: number;
  parts: MessagePart[];
  part: { type: 'output_text' | 'refusal'; text: string; logprobs: ResponsesLogprob[]; deltaFields?: string };
}

/** The reasoning item being written: its summary, if it has one, and the signature it carries for the item after it. */
interface OpenReasoning {
  kind: 'reasoning';
  id: string;
  outputIndex: number;
  text: string;
  /** A summary part was opened (an item that only carries a signature has none). */
  summarized: boolean;
  encrypted: string | undefined;
  deltaFields?: string;
}

/** A tool call being written; calls stay open until the answer finishes, as chat may interleave their fragments. */
interface OpenCall {
  id: string;
  outputIndex: number;
  callId: string;
  chatName: string;
  tool: DeclaredTool | undefined;
  arguments: string;
  deltaFields?: string;
}

/** The JSON of a delta event's item fields (`"item_id":…,"output_index":…`, then `more`), with the comma before the delta. */
const deltaFieldsOf = (itemId: string, outputIndex: number, more = ''): string => `"item_id":${JSON.stringify(itemId)},"output_index":${outputIndex}${more},`;

/**
 * Turns a chat completion stream (the provider's decoder outputs: chunk events, `usage`,
 * `affinity`, `error`) into a Responses stream (upstreams.md §2.3, fixture
 * openai-responses-stream-text.sse): `response.created` and `response.in_progress` before the
 * first translated event; per output item `response.output_item.added`, its content events
 * and `response.output_item.done`, reasoning as a summary
 * (`response.reasoning_summary_part.added`, `.reasoning_summary_text.delta`/`.done`,
 * `.reasoning_summary_part.done`), text as `output_text` (`response.content_part.added`,
 * `.output_text.delta`/`.done`, `.content_part.done`), a signature of the served chunk
 * (`reasoning_details`) as the `encrypted_content` of a reasoning item right before the
 * call or text it belongs to (or right after text already written), calls with
 * `response.function_call_arguments.delta`/`.done` or, for custom tools, their input in
 * `response.custom_tool_call_input.delta`/`.done` once the call's arguments are whole (chat
 * streams them as JSON, whose string cannot be cut into input deltas before it closes); and
 * `response.completed` (or `response.incomplete`, with the reason) carrying the last usage,
 * once the chat stream ended. Every event carries `sequence_number` from 0, one per event, so
 * the route's in-band error event numbers on after the last. Events that carry model output
 * (deltas, a call's name) have `content: true` and count it in `outputCharacters`. `usage`,
 * `affinity` and `error` outputs pass on unchanged; after an error nothing more is written.
 */
export function createChatStreamToResponses(context: ResponsesAnswerContext): StreamTranslation {
  const tools = new Map(declaredTools(context.request).map((tool) => [tool.chatName, tool]));
  const wantsLogprobs = (context.request.include ?? []).includes('message.output_text.logprobs');
  let sequence = 0;
  let started = false;
  let ended = false;
  let failed = false;
  let finish: ResponseStatus | undefined;
  let usage: Usage | undefined;
  /** The items done so far, with their output index: the terminal event's `output`. */
  const done: { outputIndex: number; item: OutputItem }[] = [];
  let open: OpenMessage | OpenReasoning | undefined;
  const calls = new Map<number, OpenCall>();
  let outputCount = 0;
  /** A message item has been opened: a signature of the text has text to belong to. */
  let wroteText = false;

  const event = (type: string, fields: Record<string, unknown>, outputCharacters = 0): Extract<StreamOutput, { type: 'event' }> => {
    const value = { type, sequence_number: sequence++, ...fields };
    return { type: 'event', event: type, data: JSON.stringify(value), value, content: outputCharacters > 0, outputCharacters };
  };
  /**
   * A delta event, the most frequent by far, written from its parts rather than built and
   * serialized whole: `fields` is the JSON of the fields between the sequence number and the
   * delta, each followed by a comma (the same for every delta of its item or part, so written
   * once: {@link deltaFieldsOf}), `tail` what follows the delta. The text is the one
   * `JSON.stringify` of {@link event} would write, key for key.
   */
  const deltaEvent = (type: string, fields: string, delta: string, tail = ''): StreamOutput => ({
    type: 'event',
    event: type,
    data: `{"type":"${type}","sequence_number":${sequence++},${fields}"delta":${JSON.stringify(delta)}${tail}}`,
    content: delta.length > 0,
    outputCharacters: delta.length,
  });
  const snapshot = (status: ResponseStatus) => {
    const output = [...done].sort((a, b) => a.outputIndex - b.outputIndex).map((entry) => entry.item);
    return responseObject(context, status, output, status.status === 'in_progress' ? undefined : usage);
  };
  const inProgress: ResponseStatus = { status: 'in_progress', incomplete_details: null };
  const start = (events: StreamOutput[]) => {
    if (started) return;
    started = true;
    // The same response in both events: built and serialized once.
    const response = snapshot(inProgress);
    const text = JSON.stringify(response);
    for (const type of ['response.created', 'response.in_progress']) {
      const value = { type, sequence_number: sequence++, response };
      events.push({ type: 'event', event: type, data: `{"type":"${type}","sequence_number":${value.sequence_number},"response":${text}}`, value, content: false, outputCharacters: 0 });
    }
  };
  const claimIndex = () => outputCount++;
  const place = (outputIndex: number, item: OutputItem) => done.push({ outputIndex, item });

  const closePart = (message: OpenMessage, events: StreamOutput[]) => {
    const part = message.part;
    const contentIndex = message.parts.length;
    const fields = { item_id: message.id, output_index: message.outputIndex, content_index: contentIndex };
    const whole: MessagePart = part.type === 'output_text' ? { type: 'output_text', annotations: [], logprobs: part.logprobs, text: part.text } : { type: 'refusal', refusal: part.text };
    if (part.type === 'output_text') events.push(event('response.output_text.done', { ...fields, text: part.text, logprobs: part.logprobs }));
    else events.push(event('response.refusal.done', { ...fields, refusal: part.text }));
    events.push(event('response.content_part.done', { ...fields, part: whole }));
    message.parts.push(whole);
  };
  const closeOpen = (events: StreamOutput[], status: ItemStatus = 'completed') => {
    if (open === undefined) return;
    const item = open;
    open = undefined;
    if (item.kind === 'message') {
      closePart(item, events);
      const message = messageItem(item.id, status, item.parts);
      events.push(event('response.output_item.done', { output_index: item.outputIndex, item: message }));
      place(item.outputIndex, message);
      return;
    }
    const fields = { item_id: item.id, output_index: item.outputIndex, summary_index: 0 };
    if (item.summarized) {
      events.push(
        event('response.reasoning_summary_text.done', { ...fields, text: item.text }),
        event('response.reasoning_summary_part.done', { ...fields, part: { type: 'summary_text', text: item.text } }),
      );
    }
    const reasoning = reasoningItem(item.id, item.summarized ? [item.text] : [], item.encrypted);
    events.push(event('response.output_item.done', { output_index: item.outputIndex, item: reasoning }));
    place(item.outputIndex, reasoning);
  };

  const openReasoning = (events: StreamOutput[], summarized: boolean): OpenReasoning => {
    closeOpen(events);
    const outputIndex = claimIndex();
    const id = outputItemIdFor('reasoning', context.requestId, outputIndex);
    const reasoning: OpenReasoning = { kind: 'reasoning', id, outputIndex, text: '', summarized, encrypted: undefined };
    open = reasoning;
    events.push(event('response.output_item.added', { output_index: outputIndex, item: { id, type: 'reasoning', summary: [] } }));
    if (summarized) events.push(event('response.reasoning_summary_part.added', { item_id: id, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } }));
    return reasoning;
  };
  /**
   * `encrypted` (a signature of the served chunk) on a reasoning item right before the item it
   * belongs to, as the JSON answer places it: the thoughts being written when they carry none
   * yet, else an item of its own without a summary; it is done when the next item opens.
   */
  const sign = (encrypted: string, events: StreamOutput[]) => {
    const reasoning = open?.kind === 'reasoning' && open.encrypted === undefined ? open : openReasoning(events, false);
    reasoning.encrypted = encrypted;
  };

  const addReasoning = (text: string, events: StreamOutput[]) => {
    // Thoughts after a signature are another reasoning item: the signature belongs to what follows it.
    const reasoning = open?.kind === 'reasoning' && open.summarized && open.encrypted === undefined ? open : openReasoning(events, true);
    reasoning.text += text;
    reasoning.deltaFields ??= deltaFieldsOf(reasoning.id, reasoning.outputIndex, ',"summary_index":0');
    events.push(deltaEvent('response.reasoning_summary_text.delta', reasoning.deltaFields, text));
  };

  const addMessageText = (type: 'output_text' | 'refusal', text: string, logprobs: ResponsesLogprob[], events: StreamOutput[]) => {
    if (open?.kind !== 'message') {
      closeOpen(events);
      wroteText = true;
      const outputIndex = claimIndex();
      const id = outputItemIdFor('message', context.requestId, outputIndex);
      open = { kind: 'message', id, outputIndex, parts: [], part: { type, text: '', logprobs: [] } };
      events.push(event('response.output_item.added', { output_index: outputIndex, item: messageItem(id, 'in_progress', []) }));
      events.push(partAdded(open));
    } else if (open.part.type !== type) {
      closePart(open, events);
      open.part = { type, text: '', logprobs: [] };
      events.push(partAdded(open));
    }
    open.part.text += text;
    open.part.deltaFields ??= deltaFieldsOf(open.id, open.outputIndex, `,"content_index":${open.parts.length}`);
    if (type === 'refusal') {
      events.push(deltaEvent('response.refusal.delta', open.part.deltaFields, text));
      return;
    }
    if (logprobs.length > 0) open.part.logprobs.push(...logprobs);
    events.push(deltaEvent('response.output_text.delta', open.part.deltaFields, text, logprobs.length === 0 ? ',"logprobs":[]' : `,"logprobs":${JSON.stringify(logprobs)}`));
  };
  const partAdded = (message: OpenMessage): StreamOutput => {
    const part = message.part.type === 'output_text' ? { type: 'output_text', annotations: [], logprobs: [], text: '' } : { type: 'refusal', refusal: '' };
    return event('response.content_part.added', { item_id: message.id, output_index: message.outputIndex, content_index: message.parts.length, part });
  };

  const addToolCall = (delta: ToolCallDelta, position: number, events: StreamOutput[], signature: string | undefined) => {
    const index = delta.index ?? position;
    let call = calls.get(index);
    if (call === undefined) {
      if (signature !== undefined) sign(signature, events);
      closeOpen(events);
      const chatName = delta.function?.name ?? '';
      const outputIndex = claimIndex();
      const tool = tools.get(chatName);
      const item = toolCallItem(tool, chatName, context.requestId, outputIndex, 'in_progress', delta.id ?? `call_${context.requestId}_${index}`, '');
      call = { id: item.id, outputIndex, callId: item.call_id, chatName, tool, arguments: '' };
      calls.set(index, call);
      events.push(event('response.output_item.added', { output_index: outputIndex, item }, item.name.length));
    }
    const fragment = delta.function?.arguments ?? '';
    if (fragment === '') return;
    call.arguments += fragment;
    if (call.tool?.custom !== true) {
      call.deltaFields ??= deltaFieldsOf(call.id, call.outputIndex);
      events.push(deltaEvent('response.function_call_arguments.delta', call.deltaFields, fragment));
    }
  };
  const closeCalls = (events: StreamOutput[]) => {
    for (const call of [...calls.values()].sort((a, b) => a.outputIndex - b.outputIndex)) {
      const fields = { item_id: call.id, output_index: call.outputIndex };
      const item = toolCallItem(call.tool, call.chatName, context.requestId, call.outputIndex, 'completed', call.callId, call.arguments);
      if (item.type === 'custom_tool_call') {
        if (item.input !== '') events.push(event('response.custom_tool_call_input.delta', { ...fields, delta: item.input }, item.input.length));
        events.push(event('response.custom_tool_call_input.done', { ...fields, input: item.input }));
      } else {
        events.push(event('response.function_call_arguments.done', { ...fields, name: item.name, arguments: item.arguments }));
      }
      events.push(event('response.output_item.done', { output_index: call.outputIndex, item }));
      place(call.outputIndex, item);
    }
    calls.clear();
  };

  const finishWith = (finishReason: string | null | undefined, events: StreamOutput[]) => {
    if (finish !== undefined) return;
    finish = statusForFinish(finishReason);
    closeOpen(events, finish.status === 'incomplete' ? 'incomplete' : 'completed');
    closeCalls(events);
  };
  const close = (): StreamOutput[] => {
    if (ended || failed) return [];
    ended = true;
    const events: StreamOutput[] = [];
    start(events);
    finishWith('stop', events);
    const status = finish ?? statusForFinish('stop');
    events.push(event(status.status === 'incomplete' ? 'response.incomplete' : 'response.completed', { response: snapshot(status) }));
    return events;
  };

  const translateChunk = (served: ServedEvent): StreamOutput[] => {
    const reading = readChatChunk(served);
    if (reading.kind === 'unreadable') {
      failed = true;
      return [{ type: 'error', error: invalidUpstreamAnswer('a chat completion chunk', { cause: reading.error }) }];
    }
    const chunk = reading.chunk;
    const events: StreamOutput[] = [];
    // Only the first choice: the translation asks for one.
    const choice = (chunk.choices ?? []).find((candidate) => (candidate.index ?? 0) === 0);
    if (choice === undefined) return events;
    start(events);
    const delta = choice.delta ?? {};
    const callIds = new Set((delta.tool_calls ?? []).flatMap((call) => (typeof call.id === 'string' ? [call.id] : [])));
    const signatures = chatSignatures(delta.reasoning_details);
    const textSignature = signatures.findLast((signature) => signature.id === undefined || !callIds.has(signature.id))?.data;
    const hasText = (typeof delta.content === 'string' && delta.content !== '') || (typeof delta.refusal === 'string' && delta.refusal !== '');
    if (typeof delta.reasoning_content === 'string' && delta.reasoning_content !== '') addReasoning(delta.reasoning_content, events);
    const signsNewText = textSignature !== undefined && hasText && open?.kind !== 'message';
    if (signsNewText) sign(textSignature, events);
    if (typeof delta.content === 'string' && delta.content !== '') addMessageText('output_text', delta.content, wantsLogprobs ? toResponsesLogprobs(choice.logprobs) : [], events);
    if (typeof delta.refusal === 'string' && delta.refusal !== '') addMessageText('refusal', delta.refusal, [], events);
    // A signature of text already written (gx signs the empty part it ends a text answer with)
    // comes after that text; one of text the answer has none of is left out, as in the JSON answer.
    if (textSignature !== undefined && !signsNewText && wroteText) sign(textSignature, events);
    (delta.tool_calls ?? []).forEach((call, position) => {
      const signature = signatures.find((candidate) => typeof call.id === 'string' && candidate.id === call.id)?.data;
      addToolCall(call, position, events, signature);
    });
    if (typeof choice.finish_reason === 'string' && choice.finish_reason !== '') finishWith(choice.finish_reason, events);
    return events;
  };

  return {
    push(served: StreamOutput): StreamOutput[] {
      if (failed || ended) return [];
      switch (served.type) {
        case 'usage':
          usage = served.usage;
          return [served];
        case 'affinity':
        case 'content_filter':
          return [served];
        case 'error':
          failed = true;
          return [served];
        case 'event':
          // `[DONE]` ends a chat stream: the response closes there, after the usage before it.
          // An event with its chunk object is a chunk: its text is not read (nor written).
          return served.value === undefined && served.data === '[DONE]' ? close() : translateChunk(served);
      }
    },
    end: close,
  };
}
