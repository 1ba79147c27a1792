import { emptyUsage, type StreamOutput, type StreamTranslation, type TranslationContext, type Usage } from '../../core/index.js';
import { chatSignatures, readChatChunk, type ChatSignature } from '../shared/chat-answer.js';
import { messageId, toMessagesStopReason, toMessagesUsage } from './messages-answer-parts.js';

type EventOutput = Extract<StreamOutput, { type: 'event' }>;
type BlockKind = 'text' | 'thinking' | 'tool_use';

/** What the translation reads of one served chat chunk's first choice; the rest is ignored. */
interface ChunkChoice {
  reasoning: string;
  text: string;
  toolCalls: { index: number; id: string | undefined; name: string; arguments: string }[];
  /** The chunk's signatures (`reasoning_details`), each naming the tool call it belongs to, or none for the text. */
  signatures: ChatSignature[];
  finishReason: string | undefined;
}

/**
 * The first choice of a served chat chunk, read with the translators' one reading of chat
 * chunks ({@link readChatChunk}): the chunks come from a provider's decoder (gx builds them, gp checked the upstream's).
 * A chunk without a choice (the usage chunk, `choices: []`) says nothing; `[DONE]` and text
 * that is not a chat chunk are undefined, and skipped.
 */
function readChunkChoice(served: EventOutput): ChunkChoice | undefined {
  // An event with its chunk object is a chunk: its text is not read (nor written).
  if (served.value === undefined && served.data === '[DONE]') return undefined;
  const reading = readChatChunk(served);
  if (reading.kind === 'unreadable') return undefined;
  const choice = reading.chunk.choices?.[0];
  const delta = choice?.delta;
  return {
    reasoning: delta?.reasoning_content ?? '',
    text: (delta?.content ?? '') + (delta?.refusal ?? ''),
    toolCalls: (delta?.tool_calls ?? []).map((call, position) => ({ index: call.index ?? position, id: call.id ?? undefined, name: call.function?.name ?? '', arguments: call.function?.arguments ?? '' })),
    signatures: chatSignatures(delta?.reasoning_details),
    finishReason: typeof choice?.finish_reason === 'string' && choice.finish_reason !== '' ? choice.finish_reason : undefined,
  };
}

const event = (type: string, payload: Record<string, unknown>, content = false, outputCharacters = 0): EventOutput => ({
  type: 'event',
  event: type,
  data: JSON.stringify({ type, ...payload }),
  content,
  outputCharacters,
});

/**
 * Turns a served chat stream into the Messages event stream: `message_start`, then per
 * content block `content_block_start`, its deltas (`thinking_delta` for reasoning text,
 * `text_delta`, `input_json_delta` for tool-call arguments, `signature_delta` for a signature
 * the chunk's `reasoning_details` carry, on a thinking block right before the tool_use or text
 * it belongs to, or right after text already written) and `content_block_stop`, indexes
 * counted from 0 in the order the blocks open; at the end `message_delta` with the stop reason
 * and the billed usage, and `message_stop`. Deltas and tool_use starts (the tool's name) carry
 * model output and are marked `content`. `usage`, `affinity` and `error` outputs pass through
 * unchanged; after an error nothing more is written (the route writes the error event).
 *
 * `message_start` waits for the first chunk's usage, which gx reports right after the chunk's
 * events, so its `usage` has the prompt's tokens when the family reports them early; otherwise
 * it goes out with the next chunk, and `message_delta` carries the whole usage either way.
 */
export function createMessagesStreamTranslation(context: TranslationContext): StreamTranslation {
  const id = messageId(context);
  let started = false;
  let held: ChunkChoice | undefined;
  let failed = false;
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  let blocks = 0;
  /** The block being written; a thinking block is `signed` once its signature_delta went out. */
  let open: { index: number; kind: BlockKind; signed?: boolean } | undefined;
  const toolBlocks = new Map<number, number>();
  /** A text block has been opened: a signature of the text has text to belong to. */
  let wroteText = false;

  const closeOpen = (outputs: EventOutput[]) => {
    if (open === undefined) return;
    outputs.push(event('content_block_stop', { index: open.index }));
    open = undefined;
  };
  const openBlock = (outputs: EventOutput[], kind: BlockKind, block: Record<string, unknown>, content = false, characters = 0): number => {
    closeOpen(outputs);
    const index = blocks++;
    open = { index, kind };
    outputs.push(event('content_block_start', { index, content_block: block }, content, characters));
    return index;
  };
  /**
   * A `content_block_delta` with `text` in the `field` of a delta of `kind`: the most frequent
   * event by far, so written from its parts, the same text {@link event} would write.
   */
  const delta = (outputs: EventOutput[], index: number, kind: 'thinking_delta' | 'text_delta' | 'input_json_delta', field: 'thinking' | 'text' | 'partial_json', text: string) =>
    outputs.push({
      type: 'event',
      event: 'content_block_delta',
      data: `{"type":"content_block_delta","index":${index},"delta":{"type":"${kind}","${field}":${JSON.stringify(text)}}}`,
      content: true,
      outputCharacters: text.length,
    });
  /**
   * `signature` as the signature_delta of a thinking block, before the block it belongs to
   * (as the JSON answer places it): the open thinking block when it has none yet, else a
   * thinking block of its own with no text; it closes when the next block opens.
   */
  const sign = (outputs: EventOutput[], signature: string) => {
    if (open?.kind !== 'thinking' || open.signed === true) openBlock(outputs, 'thinking', { type: 'thinking', thinking: '', signature: '' });
    open!.signed = true;
    outputs.push(event('content_block_delta', { index: open!.index, delta: { type: 'signature_delta', signature } }));
  };

  const translate = (choice: ChunkChoice): EventOutput[] => {
    const outputs: EventOutput[] = [];
    const callIds = new Set(choice.toolCalls.flatMap((call) => (call.id === undefined ? [] : [call.id])));
    const callSignature = (callId: string | undefined) => choice.signatures.find((signature) => callId !== undefined && signature.id === callId)?.data;
    const textSignature = choice.signatures.findLast((signature) => signature.id === undefined || !callIds.has(signature.id))?.data;
    if (choice.reasoning !== '') {
      if (open?.kind !== 'thinking' || open.signed === true) openBlock(outputs, 'thinking', { type: 'thinking', thinking: '', signature: '' });
      delta(outputs, open!.index, 'thinking_delta', 'thinking', choice.reasoning);
    }
    let textSigned = false;
    if (choice.text !== '') {
      if (open?.kind !== 'text') {
        if (textSignature !== undefined) sign(outputs, textSignature);
        textSigned = textSignature !== undefined;
        openBlock(outputs, 'text', { type: 'text', text: '' });
        wroteText = true;
      }
      delta(outputs, open!.index, 'text_delta', 'text', choice.text);
    }
    // A signature of text already written (gx signs the empty part it ends a text answer with)
    // comes after that text; one of text the answer has none of is left out, as in the JSON answer.
    if (textSignature !== undefined && !textSigned && wroteText) sign(outputs, textSignature);
    for (const call of choice.toolCalls) {
      let index = toolBlocks.get(call.index);
      if (index === undefined) {
        const signature = callSignature(call.id);
        if (signature !== undefined) sign(outputs, signature);
        index = openBlock(outputs, 'tool_use', { type: 'tool_use', id: call.id ?? `${id}_tool_${call.index}`, name: call.name, input: {} }, true, call.name.length);
        toolBlocks.set(call.index, index);
      }
      if (call.arguments !== '') delta(outputs, index, 'input_json_delta', 'partial_json', call.arguments);
    }
    if (choice.finishReason !== undefined) {
      finishReason = choice.finishReason;
      closeOpen(outputs);
    }
    return outputs;
  };

  const messageStart = (): EventOutput => {
    started = true;
    const message = { id, type: 'message', role: 'assistant', model: context.model, content: [], stop_reason: null, stop_sequence: null, usage: toMessagesUsage(usage ?? emptyUsage()) };
    return event('message_start', { message });
  };
  /** `message_start`, then the held chunk's events. */
  const start = (): EventOutput[] => {
    const first = held;
    held = undefined;
    return [messageStart(), ...(first === undefined ? [] : translate(first))];
  };

  return {
    push(output: StreamOutput): StreamOutput[] {
      if (output.type !== 'event') {
        if (output.type === 'error') failed = true;
        if (output.type !== 'usage') return [output];
        usage = output.usage;
        return failed || started || held === undefined ? [output] : [...start(), output];
      }
      if (failed) return [];
      const choice = readChunkChoice(output);
      if (choice === undefined) return [];
      if (started) return translate(choice);
      if (held === undefined) {
        held = choice;
        return [];
      }
      return [...start(), ...translate(choice)];
    },

    end(): StreamOutput[] {
      if (failed) return [];
      const outputs: EventOutput[] = started ? [] : start();
      closeOpen(outputs);
      outputs.push(
        event('message_delta', { delta: { stop_reason: toMessagesStopReason(finishReason), stop_sequence: null }, usage: toMessagesUsage(usage ?? emptyUsage()) }),
        event('message_stop', {}),
      );
      return outputs;
    },
  };
}
