import t from 'tap';
import { upstreamStreamTruncated, type SseFrame, type StreamDecoder, type StreamOutput, type Usage } from '../../../../core/index.js';
import { createGpChatStreamDecoder } from '../../../../providers/gp/gp-chat-stream-decoder.js';
import { createGxChatStreamDecoder } from '../../../../providers/gx/chat/gx-chat-stream-decoder.js';
import responsesToChat from '../../../../translators/responses-to-chat/index.js';
import { contextFor, eventsOf, fixtureJson, fixtureText, recordedRequest, sseFrames, translateAll, validated, type ResponsesEvent } from './fixtures/read-fixtures.js';

type JsonObject = Record<string, unknown>;

/** The provider's decoder outputs for recorded frames: what the pipeline stacks the translation on. */
const decoded = (decoder: StreamDecoder, frames: readonly SseFrame[]): StreamOutput[] => [...frames.flatMap((frame) => decoder.push(frame)), ...decoder.end()];
const gxDecoder = () => createGxChatStreamDecoder({ model: 'gx-2.5-pro', requestId: 'req-1', created: 1_796_000_000, includeUsage: true });
// The translation always asks for usage, so the provider is always told the client wants it.
const gpDecoder = () => createGpChatStreamDecoder({ includeUsage: true });
const deepSeekFrames = (): SseFrame[] => fixtureText('responses-to-chat/deepseek-chat-tool-call.chunks.txt').split('\n').map((data) => ({ data }));

const streamRequest = recordedRequest('openai-sdk-stream-text');
const translate = (served: readonly StreamOutput[], request = streamRequest) => translateAll(responsesToChat.stream!('chat', contextFor(true), request), served);
const types = (events: readonly ResponsesEvent[]) => events.map((event) => event.type);
const last = (events: readonly ResponsesEvent[]) => events.at(-1) as ResponsesEvent & { response: JsonObject & { output: JsonObject[]; usage?: JsonObject } };
const usages = (outputs: readonly StreamOutput[]) => outputs.flatMap((output) => (output.type === 'usage' ? [output.usage] : []));
const textOf = (events: readonly ResponsesEvent[], type: string) => events.filter((event) => event.type === type).map((event) => String(event.delta)).join('');

t.test('a recorded gx text stream: the full event sequence, numbered from 0, closed by response.completed with the usage', async (t) => {
  const served = decoded(gxDecoder(), sseFrames('gx/gemini-stream-multi-chunk.sse'));
  const outputs = translate(served);
  const events = eventsOf(outputs);
  const deltas = events.filter((event) => event.type === 'response.output_text.delta').length;
  t.ok(deltas >= 3);
  t.strictSame(types(events), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    ...Array<string>(deltas).fill('response.output_text.delta'),
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ]);
  t.strictSame(
    events.map((event) => event.sequence_number),
    events.map((_event, index) => index),
  );
  const served_text = served.flatMap((output) => (output.type === 'event' && output.data !== '[DONE]' ? [(JSON.parse(output.data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? ''] : [])).join('');
  t.equal(textOf(events, 'response.output_text.delta'), served_text, 'the text is the chat stream’s, delta for delta');
  const completed = last(events).response;
  t.equal(completed.status, 'completed');
  t.strictSame(completed.output, [{ id: 'msg_req-1_0', type: 'message', status: 'completed', content: [{ type: 'output_text', annotations: [], logprobs: [], text: served_text }], role: 'assistant' }]);
  const billed = usages(served).at(-1)!;
  t.match(completed.usage, { input_tokens: billed.inputTokens, output_tokens: billed.outputTokens, output_tokens_details: { reasoning_tokens: billed.reasoningTokens } });
});

t.test('content is flagged exactly on the events that carry output, which count its characters', async (t) => {
  const outputs = translate(decoded(gxDecoder(), sseFrames('gx/gemini-stream-multi-chunk.sse'))).filter((output) => output.type === 'event');
  for (const output of outputs) {
    const type = JSON.parse(output.data).type as string;
    t.equal(output.content, type.endsWith('.delta'), `${type} ${output.content ? 'carries' : 'carries no'} content`);
  }
  const characters = outputs.reduce((sum, output) => sum + (output.outputCharacters ?? 0), 0);
  t.equal(characters, textOf(eventsOf(outputs), 'response.output_text.delta').length);
});

t.test('the events have the fields of the recorded real stream, in its order', async (t) => {
  const recorded = new Map(sseFrames('gp/openai-responses-stream-text.sse').map((frame) => [frame.event!, JSON.parse(frame.data) as JsonObject]));
  const events = eventsOf(translate(decoded(gxDecoder(), sseFrames('gx/gemini-stream-multi-chunk.sse'))));
  // Deltas carry `obfuscation` padding only when the client did not turn it off; the gateway never pads.
  const keys = (value: JsonObject) => Object.keys(value).filter((key) => key !== 'obfuscation');
  for (const event of events) {
    const real = recorded.get(event.type);
    if (real === undefined) continue;
    t.strictSame(Object.keys(event), keys(real), `${event.type} has the recorded fields`);
    for (const field of ['item', 'part']) if (field in real) t.strictSame(Object.keys(event[field] as JsonObject), keys(real[field] as JsonObject), `${event.type}.${field} too`);
  }
  const created = events[0]!.response as JsonObject;
  const realCreated = recorded.get('response.created')!.response as JsonObject;
  // `usage` (until the end) and `user` are null in the real one and left out here: OpenAI's OpenAPI description has no null for them.
  t.strictSame(Object.keys(created), Object.keys(realCreated).filter((key) => key !== 'usage' && key !== 'user'));
  t.strictSame(Object.keys(last(events).response), Object.keys(recorded.get('response.completed')!.response as JsonObject).filter((key) => key !== 'user'));
});

t.test('a recorded DeepSeek stream: a reasoning summary, then a function call whose arguments arrive in fragments', async (t) => {
  const request = validated({ model: 'deepseek-v4-flash', input: 'Weather?', stream: true, tools: [{ type: 'function', name: 'weather' }] });
  const served = decoded(gpDecoder(), deepSeekFrames());
  const events = eventsOf(translate(served, request));
  t.strictSame(types(events), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.reasoning_summary_part.added',
    'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.delta',
    'response.reasoning_summary_text.done',
    'response.reasoning_summary_part.done',
    'response.output_item.done',
    'response.output_item.added',
    ...Array<string>(10).fill('response.function_call_arguments.delta'),
    'response.function_call_arguments.done',
    'response.output_item.done',
    'response.completed',
  ]);
  t.equal(textOf(events, 'response.reasoning_summary_text.delta'), 'The user asks');
  t.match(events[10], { output_index: 1, item: { id: 'fc_req-1_1', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_00_IhCAliIHtM9gKpgfqbBV9873', name: 'weather' } });
  t.match(events.at(-3), { type: 'response.function_call_arguments.done', item_id: 'fc_req-1_1', name: 'weather', arguments: '{"location": "San Francisco"}' });
  const completed = last(events).response;
  t.strictSame(completed.output.map((item) => item.type), ['reasoning', 'function_call']);
  t.strictSame(completed.usage, { input_tokens: 374, input_tokens_details: { cached_tokens: 256, cache_write_tokens: 0 }, output_tokens: 61, output_tokens_details: { reasoning_tokens: 17 }, total_tokens: 435 });
});

t.test('a call of a custom tool streams its input once the arguments are whole', async (t) => {
  // The DeepSeek call declared as a custom tool: arguments that are not {"input": ...} are passed on as the model wrote them.
  const request = validated({ model: 'deepseek-v4-flash', input: 'Weather?', stream: true, tools: [{ type: 'custom', name: 'weather' }] });
  const events = eventsOf(translate(decoded(gpDecoder(), deepSeekFrames()), request));
  t.notOk(types(events).includes('response.function_call_arguments.delta'));
  const inputEvents = events.filter((event) => event.type.startsWith('response.custom_tool_call_input'));
  t.match(inputEvents, [
    { type: 'response.custom_tool_call_input.delta', item_id: 'ctc_req-1_1', output_index: 1, delta: '{"location": "San Francisco"}' },
    { type: 'response.custom_tool_call_input.done', item_id: 'ctc_req-1_1', output_index: 1, input: '{"location": "San Francisco"}' },
  ]);
  t.match(last(events).response.output[1], { type: 'custom_tool_call', call_id: 'call_00_IhCAliIHtM9gKpgfqbBV9873', name: 'weather', input: '{"location": "San Francisco"}', status: 'completed' });
});

t.test('a recorded gx function call keeps the call id the chat stream gave it, its signature on a reasoning item before it', async (t) => {
  const frames = sseFrames('gx/gemini3-stream-function-call-thought-signature.sse');
  const signature = (JSON.parse(frames[0]!.data) as { candidates: { content: { parts: JsonObject[] } }[] }).candidates[0]!.content.parts[0]!.thoughtSignature;
  const served = decoded(gxDecoder(), frames);
  const chatCall = served.flatMap((output) => (output.type === 'event' && output.data !== '[DONE]' ? ((JSON.parse(output.data) as { choices: { delta: { tool_calls?: JsonObject[] } }[] }).choices[0]?.delta.tool_calls ?? []) : []))[0]!;
  const events = eventsOf(translate(served, validated({ model: 'gx-3-pro', input: 'Weather?', stream: true, tools: [{ type: 'function', name: 'weather' }] })));
  const [reasoning, call] = last(events).response.output;
  t.strictSame(reasoning, { id: 'rs_req-1_0', type: 'reasoning', encrypted_content: signature, summary: [] }, 'the recorded signature, whole, without a summary');
  t.match(call, { type: 'function_call', call_id: chatCall.id, name: 'weather', arguments: '{"location":"San Francisco"}' });
  t.strictSame(
    types(events).slice(2, 5),
    ['response.output_item.added', 'response.output_item.done', 'response.output_item.added'],
    'the reasoning item has no summary events; it is done before the call is added',
  );
});

t.test('a signature after text already streamed is a reasoning item after the message; one of no text is left out', async (t) => {
  const chunk = (delta: JsonObject, finish: string | null = null): StreamOutput => ({ type: 'event', data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] }), content: true });
  const events = eventsOf(translate([chunk({ role: 'assistant', content: 'Hello.' }), chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'c2lnLXRleHQ=' }] }), chunk({}, 'stop')]));
  const output = last(events).response.output;
  t.strictSame(output.map((item) => item.type), ['message', 'reasoning']);
  t.strictSame(output[1], { id: 'rs_req-1_1', type: 'reasoning', encrypted_content: 'c2lnLXRleHQ=', summary: [] });

  const thoughts = eventsOf(translate([chunk({ role: 'assistant', reasoning_content: 'Hm.', reasoning_details: [{ type: 'reasoning.encrypted', data: 'c2ln' }] }), chunk({}, 'length')]));
  t.strictSame(last(thoughts).response.output, [{ id: 'rs_req-1_0', type: 'reasoning', summary: [{ type: 'summary_text', text: 'Hm.' }] }]);
});

t.test('a recorded OpenAI-format stream with a usage chunk: the usage comes from that chunk', async (t) => {
  const served = decoded(gpDecoder(), sseFrames('gp/openai-chat-stream-include-usage.sse'));
  const events = eventsOf(translate(served));
  t.equal(textOf(events, 'response.output_text.delta'), '**Holiday Name');
  t.match(last(events).response.usage, { input_tokens: 16, output_tokens: 300, total_tokens: 316 });
});

t.test('a stream cut at the token limit ends with response.incomplete, its message marked incomplete', async (t) => {
  const chunks = fixtureJson<{ response: { chunks: unknown[] } }>('gx/gemini-stream-chunks-thinking-budget.json').response.chunks;
  const events = eventsOf(translate(decoded(gxDecoder(), chunks.map((chunk) => ({ data: JSON.stringify(chunk) })))));
  const closing = last(events);
  t.equal(closing.type, 'response.incomplete');
  t.match(closing.response, { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' } });
  t.equal(closing.response.output[0]?.status, 'incomplete');
});

t.test('usage, affinity and error outputs pass on unchanged; after an error nothing more is written', async (t) => {
  const usage: Usage = { inputTokens: 5, cachedInputTokens: 1, outputTokens: 3, reasoningTokens: 2, source: 'upstream' };
  const usageOutput: StreamOutput = { type: 'usage', usage };
  const affinity: StreamOutput = { type: 'affinity', key: 'k' };
  const error: StreamOutput = { type: 'error', error: upstreamStreamTruncated() };
  const translation = responsesToChat.stream!('chat', contextFor(true), streamRequest);
  const text = JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: null }] });
  t.equal(translation.push(usageOutput)[0], usageOutput, 'usage is the same output');
  t.equal(translation.push(affinity)[0], affinity);
  t.strictSame(types(eventsOf(translation.push({ type: 'event', data: text, content: true }))), ['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta']);
  t.strictSame(translation.push(error), [error]);
  t.strictSame(translation.push({ type: 'event', data: text, content: true }), []);
  t.strictSame(translation.end(), [], 'no closing event after an error');
  t.strictSame(usage, { inputTokens: 5, cachedInputTokens: 1, outputTokens: 3, reasoningTokens: 2, source: 'upstream' });
});

t.test('an error before any chunk is passed on alone: nothing was announced yet', async (t) => {
  const error: StreamOutput = { type: 'error', error: upstreamStreamTruncated() };
  t.strictSame(translate([error]), [error]);
});

t.test('a chunk that is not a chat chunk is the upstream’s fault, an error output', async (t) => {
  const outputs = translate([{ type: 'event', data: '{"choices": "no"}', content: true }]);
  t.equal(outputs.length, 1);
  t.match(outputs[0], { type: 'error', error: { statusCode: 502, code: 'upstream_invalid_response' } });
});

t.test('log probabilities asked for with include come with each text delta and in the done part', async (t) => {
  const request = validated({ model: 'gx-2.5-pro', input: 'Hi', stream: true, include: ['message.output_text.logprobs'] });
  const logprobs = { content: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.5, bytes: null }] }] };
  const events = eventsOf(
    translate(
      [
        { type: 'event', data: JSON.stringify({ choices: [{ index: 0, delta: { content: 'Hi' }, logprobs, finish_reason: null }] }), content: true },
        { type: 'event', data: JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }), content: false },
        { type: 'event', data: '[DONE]', content: false },
      ],
      request,
    ),
  );
  const expected = [{ token: 'Hi', logprob: -0.5, bytes: [72, 105], top_logprobs: [{ token: 'Hi', logprob: -0.5, bytes: [72, 105] }] }];
  t.strictSame(events.find((event) => event.type === 'response.output_text.delta')?.logprobs, expected);
  t.strictSame(events.find((event) => event.type === 'response.output_text.done')?.logprobs, expected);
});
