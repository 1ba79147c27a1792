// A Responses stream (fixtures/responses-stream-text.sse) as chat completion chunks. The
// served stream's outputs are its events as the provider's decoder passes them (`data` the
// event's JSON, `event` its type), its usage and affinity, and an error when it failed:
// - `response.created`: the first chunk, the assistant's role, no content yet;
// - text, refusal and reasoning summary deltas: a chunk each, carrying model output;
// - a function call's item: a tool call chunk with its call id and name, then its arguments'
//   deltas, indexed as chat numbers tool calls;
// - `response.completed` / `.incomplete`: the chunk with the finish reason;
// - at the end, the usage chunk when the client asked for it, then `[DONE]`.
// Usage, affinity and errors go on unchanged: the gateway bills the served usage.
import { malformedUpstreamAnswer, type ChatCompletionRequest, type StreamOutput, type StreamTranslation, type TranslationContext, type Usage } from 'model-gateway';
import { chatFinishReason, chatUsage } from './chat-usage.js';
import { chatCompletionId } from './to-chat-completion.js';

/** What the translation reads of a Responses stream event; anything else in it is passed over. */
interface ResponsesEvent {
  type?: string;
  delta?: string;
  output_index?: number;
  item?: { type?: string; call_id?: string; name?: string };
  response?: { status?: string; incomplete_details?: { reason?: string } | null };
}

/** A fresh translation of one Responses stream into the chunks of a chat completion stream. */
export function createChunkTranslation(context: TranslationContext, request: ChatCompletionRequest): StreamTranslation {
  const includeUsage = request.stream_options?.include_usage === true;
  const id = chatCompletionId(context);
  /** The chat index of each function call, by its Responses output index. */
  const toolIndexes = new Map<number, number>();
  let usage: Usage | undefined;

  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created: context.createdSeconds, model: context.model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }] });
  const output = (data: string, outputCharacters: number, content = outputCharacters > 0): StreamOutput => ({ type: 'event', data, content, outputCharacters });

  function translate(event: ResponsesEvent): StreamOutput[] {
    const delta = typeof event.delta === 'string' ? event.delta : '';
    switch (event.type) {
      case 'response.created':
        return [output(chunk({ role: 'assistant', content: '' }), 0)];
      case 'response.output_text.delta':
        return [output(chunk({ content: delta }), delta.length)];
      case 'response.refusal.delta':
        return [output(chunk({ refusal: delta }), delta.length)];
      case 'response.reasoning_summary_text.delta':
        return [output(chunk({ reasoning_content: delta }), delta.length)];
      case 'response.output_item.added': {
        if (event.item?.type !== 'function_call') return [];
        const index = toolIndexes.size;
        toolIndexes.set(event.output_index ?? index, index);
        // The call's name is model output too: the stream commits to this channel here.
        return [output(chunk({ tool_calls: [{ index, id: event.item.call_id ?? '', type: 'function', function: { name: event.item.name ?? '', arguments: '' } }] }), 0, true)];
      }
      case 'response.function_call_arguments.delta': {
        const index = toolIndexes.get(event.output_index ?? -1) ?? 0;
        return [output(chunk({ tool_calls: [{ index, function: { arguments: delta } }] }), delta.length)];
      }
      case 'response.completed':
      case 'response.incomplete':
        return [output(chunk({}, chatFinishReason(event.response?.status, event.response?.incomplete_details?.reason, toolIndexes.size > 0)), 0)];
      default:
        // Lifecycle events (`in_progress`, `.done` events repeating what the deltas carried) have no chat chunk.
        return [];
    }
  }

  return {
    push(served: StreamOutput): StreamOutput[] {
      if (served.type !== 'event') {
        if (served.type === 'usage') usage = served.usage;
        return [served];
      }
      let event: ResponsesEvent;
      try {
        event = JSON.parse(served.data) as ResponsesEvent;
      } catch (cause) {
        return [{ type: 'error', error: malformedUpstreamAnswer('a Responses stream event that is not JSON', { cause }) }];
      }
      return translate(event);
    },
    end(): StreamOutput[] {
      const closing: StreamOutput[] = [];
      if (includeUsage && usage !== undefined) {
        closing.push(output(JSON.stringify({ id, object: 'chat.completion.chunk', created: context.createdSeconds, model: context.model, choices: [], usage: chatUsage(usage) }), 0));
      }
      closing.push(output('[DONE]', 0));
      return closing;
    },
  };
}
