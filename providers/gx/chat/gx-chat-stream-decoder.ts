import {
  upstreamStreamTruncated,
  type ChatCompletionChunk,
  type ChatCompletionChunkChoice,
  type ChatCompletionDelta,
  type ChatCompletionToolCallDelta,
  type SseFrame,
  type StreamDecoder,
  type StreamOutput,
  type Usage,
} from '../../../core/index.js';
import { readJsonFrame, stopAfterFirstError, streamFailure as fail } from '../../../core/kit/index.js';
import { convertGxUsage, tallyGxProducedOutput, type GxProducedOutput } from '../convert-gx-usage.js';
import { emptyGxResponse, gxInBandError, gxPromptBlocked, gxResponseExpected, invalidGxResponse } from '../gx-error.js';
import { readGxResponse, type GxCandidate } from '../gx-schemas.js';
import { convertGxLogprobs, mapGxFinishReason, readGxCandidateParts, toChatCompletionUsage, type GxResponseContext } from './from-gx-response.js';

/** What the chat chunks need besides the upstream frames (`created` is the same on every chunk). */
export interface GxChatStreamOptions extends GxResponseContext {
  /** `stream_options.include_usage`: `usage: null` on every chunk and a last usage chunk. */
  includeUsage: boolean;
}

/** Per choice: what has been sent so far. */
interface ChoiceState {
  /** A chunk with `role` went out. */
  started: boolean;
  /** The finish chunk went out. */
  finished: boolean;
  /** Tool calls sent, which is also the next tool call's index. */
  toolCalls: number;
  /** The end of the content sent so far, for placing fenced blocks on their own lines. */
  tail: string;
}

/**
 * Translates the upstream's `streamGenerateContent?alt=sse` frames (each a whole
 * GenerateContentResponse; usage cumulative on every one, upstreams.md §1.4) into
 * `chat.completion.chunk` events:
 * - one chunk per candidate per frame that carries text, thought text (`reasoning_content`),
 *   rendered code or media, or function calls (complete, with running indexes); the first
 *   chunk of a choice carries `role: assistant`; these are the events with `content: true`;
 *   thought signatures go in the chunk of their part as `reasoning_details` (a chunk of a
 *   signature alone, as on the empty text part 3-generation models end with, has
 *   `content: false`);
 * - a chunk with an empty delta and the mapped `finish_reason` when a candidate finishes, and
 *   a `content_filter` output beside it when that reason is `content_filter`;
 * - a `usage` output on every frame with `usageMetadata`, so an aborted stream bills what
 *   it used;
 * - at the end, a `choices: []` usage chunk when `includeUsage`, then `[DONE]`.
 * The id is the upstream's `responseId` from the first frame, else `chatcmpl-<requestId>`.
 * An `{error}` frame, a blocked prompt, an unreadable frame, a stream without any candidate
 * or one that ends before every choice finished become an `error` output, and the decoder
 * then stays silent. Unknown fields are ignored; `[DONE]` and blank frames are skipped.
 */
export function createGxChatStreamDecoder(options: GxChatStreamOptions): StreamDecoder {
  const fallbackId = `chatcmpl-${options.requestId}`;
  let id: string | undefined;
  let usage: Usage | undefined;
  const produced: GxProducedOutput = { images: 0, audio: false };
  const choices = new Map<number, ChoiceState>();

  // Every chunk of the stream is the same object around its choices, so that text is written
  // once (when the id is known) and only the choices are serialized per chunk: the same JSON
  // as stringifying the whole `ChatCompletionChunk`, key for key.
  let chunkHead: string | undefined;
  const chunkText = (serializedChoices: string, tail: string): string => {
    chunkHead ??= `{"id":${JSON.stringify(id ?? fallbackId)},"object":"chat.completion.chunk","created":${JSON.stringify(options.created)},"model":${JSON.stringify(options.model)},"choices":[`;
    return chunkHead + serializedChoices + tail;
  };
  const choiceTail = options.includeUsage ? '],"usage":null}' : ']}';
  // The chunk goes out as its object too (`value`), for a translation stacked on this decoder
  // to read without parsing it back.
  const chunkEvent = (choice: ChatCompletionChunkChoice, content: boolean, outputCharacters = 0, serialized = JSON.stringify(choice)): StreamOutput => {
    const value: ChatCompletionChunk = { id: id ?? fallbackId, object: 'chat.completion.chunk', created: options.created, model: options.model, choices: [choice] };
    if (options.includeUsage) value.usage = null;
    return { type: 'event', data: chunkText(serialized, choiceTail), value, content, outputCharacters };
  };

  // Appends the candidate's chunks to `outputs` (one array per frame, not one per candidate).
  const candidateOutputs = (candidate: GxCandidate, position: number, outputs: StreamOutput[]): void => {
    const index = candidate.index ?? position;
    let state = choices.get(index);
    if (state === undefined) {
      state = { started: false, finished: false, toolCalls: 0, tail: '' };
      choices.set(index, state);
    }
    if (state.finished) return;

    const { content, reasoning = '', toolCalls: calls, signatures } = readGxCandidateParts(candidate, state.tail);
    const toolCalls: ChatCompletionToolCallDelta[] = calls.length === 0 ? [] : calls.map((call) => ({ index: state.toolCalls++, ...call }));

    if (content !== '' || reasoning !== '' || toolCalls.length > 0 || signatures.length > 0) {
      const delta: ChatCompletionDelta = state.started ? {} : { role: 'assistant' };
      state.started = true;
      if (content !== '') delta.content = content;
      if (reasoning !== '') delta.reasoning_content = reasoning;
      if (toolCalls.length > 0) delta.tool_calls = toolCalls;
      if (signatures.length > 0) delta.reasoning_details = signatures;
      if (content !== '') state.tail = content.slice(-1);
      const callCharacters = toolCalls.reduce((sum, call) => sum + call.function.name.length + call.function.arguments.length, 0);
      // A chunk with only a signature (the empty text part 3-generation models end with) carries no model output.
      const output = content.length + reasoning.length + callCharacters;
      const logprobs = convertGxLogprobs(candidate.logprobsResult);
      const choice: ChatCompletionChunkChoice = { index, delta, logprobs, finish_reason: null };
      // Nearly every chunk is a piece of text: its JSON is written here, key for key what
      // JSON.stringify(choice) gives, without walking the object.
      const serialized =
        logprobs === null && reasoning === '' && toolCalls.length === 0 && signatures.length === 0 && content !== ''
          ? `{"index":${index},"delta":{${delta.role === undefined ? '' : '"role":"assistant",'}"content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":null}`
          : undefined;
      outputs.push(chunkEvent(choice, output > 0 || toolCalls.length > 0, output, serialized ?? JSON.stringify(choice)));
    }
    const finishReason = mapGxFinishReason(candidate.finishReason, false);
    if (finishReason !== undefined) {
      state.finished = true;
      const delta: ChatCompletionDelta = state.started ? {} : { role: 'assistant' };
      state.started = true;
      // The upstream ends function-call turns with STOP (upstreams.md §1.3), so calls decide.
      const reason = state.toolCalls > 0 ? 'tool_calls' : finishReason;
      outputs.push(chunkEvent({ index, delta, logprobs: null, finish_reason: reason }, false));
      // The core judges whether it came before any content (a refusal, `fallbacks_on`).
      if (reason === 'content_filter') outputs.push({ type: 'content_filter' });
    }
  };

  return stopAfterFirstError({
    push(frame: SseFrame): StreamOutput[] {
      // Blank frames and a stray `[DONE]` are skipped; an `{"error": ...}` object is the
      // upstream's in-band error, judged by its status (reference/upstreams.md §1.4).
      const read = readJsonFrame(frame, gxResponseExpected, gxInBandError);
      if (read.kind === 'blank' || read.kind === 'done') return [];
      if (read.kind === 'error') return fail(read.error);
      const parsed = readGxResponse(read.json);
      if (!parsed.success) return fail(invalidGxResponse(parsed.error));
      const response = parsed.data;
      id ??= response.responseId || fallbackId;

      const candidates = response.candidates ?? [];
      const outputs: StreamOutput[] = [];
      for (let position = 0; position < candidates.length; position++) candidateOutputs(candidates[position] as GxCandidate, position, outputs);
      tallyGxProducedOutput(candidates, produced);
      if (response.usageMetadata !== undefined && response.usageMetadata !== null) {
        usage = convertGxUsage(response.usageMetadata, produced);
        outputs.push({ type: 'usage', usage });
      }
      const blocked = candidates.length === 0 ? gxPromptBlocked(response) : undefined;
      if (blocked !== undefined) outputs.push(...fail(blocked));
      return outputs;
    },

    end(): StreamOutput[] {
      if (choices.size === 0) return fail(emptyGxResponse());
      // The upstream puts finishReason on its last chunk (upstreams.md §1.4); without it the
      // stream broke off, which the client must not mistake for a complete answer.
      if ([...choices.values()].some((state) => !state.finished)) return fail(upstreamStreamTruncated());
      const done: StreamOutput = { type: 'event', data: '[DONE]', content: false };
      if (!options.includeUsage || usage === undefined) return [done];
      const usageChunk: ChatCompletionChunk = { id: id ?? fallbackId, object: 'chat.completion.chunk', created: options.created, model: options.model, choices: [], usage: toChatCompletionUsage(usage) };
      return [{ type: 'event', data: chunkText('', `],"usage":${JSON.stringify(usageChunk.usage)}}`), value: usageChunk, content: false }, done];
    },
  });
}
