// What a translator author writes: the translator suite against recorded answers of the served
// format, and the mappings a client relies on, from the same recordings (fixtures/README.md).
import { readFileSync } from 'node:fs';
import t from 'tap';
import { GatewayError, upstreamErrorCode, type ChatCompletionRequest, type SseFrame, type StreamDecoder, type StreamOutput, type Usage } from 'model-gateway';
import { decodeRecordedStream, runTranslatorConformance } from 'model-gateway/testing';
import translator from './index.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
const requests = JSON.parse(fixture('chat-requests.json')) as Array<{ label: string; request: ChatCompletionRequest }>;
const recorded = (label: string): ChatCompletionRequest => structuredClone(requests.find((entry) => entry.label === label)!.request);
const answerBody = JSON.parse(fixture('responses-answer-reasoning.json')) as { usage: { input_tokens: number; output_tokens: number; output_tokens_details: { reasoning_tokens: number } } };
/** What the gateway bills for the recorded answer: its own usage (865 in, 163 out of which 128 reasoning). */
const answerUsage: Usage = { inputTokens: answerBody.usage.input_tokens, cachedInputTokens: 0, outputTokens: answerBody.usage.output_tokens, reasoningTokens: answerBody.usage.output_tokens_details.reasoning_tokens, source: 'upstream' };
const context = (stream: boolean) => ({ model: 'acme-chat', requestId: 'req-1', createdSeconds: 1_765_552_663, stream });

/**
 * What a provider that implements Responses hands a translator for a Responses stream, as the
 * gateway's own does: each event with its type and JSON text, text deltas as model output,
 * the usage of `response.completed`, and an `error` event as an error output.
 */
function responsesEvents(): StreamDecoder {
  return {
    push(frame: SseFrame): StreamOutput[] {
      const event = JSON.parse(frame.data) as { type: string; delta?: string; response?: { usage?: { input_tokens: number; output_tokens: number } | null }; error?: { code: string; message: string } };
      if (event.type === 'error') return [{ type: 'error', error: new GatewayError(429, upstreamErrorCode(event.error?.code ?? 'error'), event.error?.message ?? '', { retryable: true }) }];
      const outputs: StreamOutput[] = [{ type: 'event', event: event.type, data: frame.data, content: event.type.endsWith('.delta'), outputCharacters: event.delta?.length ?? 0 }];
      const usage = event.response?.usage;
      if (event.type === 'response.completed' && usage) outputs.push({ type: 'usage', usage: { inputTokens: usage.input_tokens, cachedInputTokens: 0, outputTokens: usage.output_tokens, reasoningTokens: 0, source: 'upstream' } });
      return outputs;
    },
    end: () => [],
  };
}

const textStream = () => decodeRecordedStream(fixture('responses-stream-text.sse'), responsesEvents());

t.test('the translator passes the translator suite on the recorded answers', async (t) => {
  const report = await runTranslatorConformance({
    translator: new URL('./index.ts', import.meta.url),
    cases: [
      { label: 'tools and reasoning effort', request: recorded('tools and reasoning effort'), answer: { body: answerBody, usage: answerUsage } },
      { label: 'a tool result sent back, streamed', request: recorded('a tool result sent back, streamed'), streamed: { outputs: textStream() } },
    ],
  });
  for (const check of report.checks) t.ok(check.passed, check.name, { message: check.message });
});

t.test('a chat request becomes a Responses request: messages as input items, tools flattened, effort and limit renamed', async (t) => {
  const { operation, request } = translator.request(recorded('tools and reasoning effort'), context(false));
  t.equal(operation, 'responses');
  t.strictSame(request.input, [
    { type: 'message', role: 'system', content: 'You are a careful calculator.' },
    { type: 'message', role: 'user', content: 'What is ((12 + 7) * 3) * 10? Use the calculator.' },
  ]);
  t.match(request, { model: 'gp-5.4', reasoning: { effort: 'high' }, max_output_tokens: 2000, store: false, tools: [{ type: 'function', name: 'calculator', strict: true, parameters: { required: ['a', 'b', 'op'] } }] });
  t.notOk('stream' in request, 'a whole answer is asked for as one');
});

t.test('a tool round trip keeps its call id: the assistant call and the tool result name the same call', async (t) => {
  const { request } = translator.request(recorded('a tool result sent back, streamed'), context(true));
  t.strictSame((request.input as unknown[]).slice(1), [
    { type: 'function_call', call_id: 'call_a1', name: 'calculator', arguments: '{"a":12,"b":7,"op":"add"}' },
    { type: 'function_call_output', call_id: 'call_a1', output: '19' },
  ]);
  t.match(request, { stream: true, tool_choice: 'auto', parallel_tool_calls: false });
});

t.test('a stop sequence, which Responses cannot say, is a 400 naming the chat field', async (t) => {
  t.throws(() => translator.request(recorded('a stop sequence'), context(false)), { statusCode: 400, code: 'invalid_request', param: 'stop', message: /^stop: the Responses API has no stop sequences/ });
});

t.test('the recorded answer becomes a chat completion: its text, its reasoning summary, stop, and the billed usage', async (t) => {
  const completion = translator.answer(structuredClone(answerBody), answerUsage, 'responses', context(false), recorded('tools and reasoning effort')) as Record<string, any>;
  t.match(completion, { id: 'chatcmpl-req-1', object: 'chat.completion', created: 1_765_552_663, model: 'acme-chat' });
  t.equal(completion.choices[0].message.content, '12 + 7 = 19\n19 × 3 = 57\n57 × 10 = 570\n\nFinal result: 570');
  t.match(completion.choices[0].message.reasoning_content, /^\*\*Reporting final result\*\*/);
  t.equal(completion.choices[0].finish_reason, 'stop');
  t.strictSame(completion.usage, { prompt_tokens: 865, completion_tokens: 163, total_tokens: 1028, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 128 } });
});

t.test('the recorded stream becomes chat chunks: the role first, the text in order, stop, usage when asked for, then [DONE]', async (t) => {
  const translation = translator.stream!('responses', context(true), recorded('a tool result sent back, streamed'));
  const outputs = [...textStream().flatMap((output) => translation.push(output)), ...translation.end()];
  const events = outputs.filter((output) => output.type === 'event');
  const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data));
  t.strictSame(chunks[0].choices[0].delta, { role: 'assistant', content: '' });
  t.equal(events[0]?.content, false, 'the role alone commits nothing: the gateway may still fail over');
  t.equal(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join(''), 'The final result is **570**.');
  t.equal(chunks.at(-2).choices[0].finish_reason, 'stop');
  t.strictSame(chunks.at(-1), { id: 'chatcmpl-req-1', object: 'chat.completion.chunk', created: 1_765_552_663, model: 'acme-chat', choices: [], usage: { prompt_tokens: 299, completion_tokens: 12, total_tokens: 311, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0 } } });
  t.equal(events.at(-1)?.data, '[DONE]');
  t.match(outputs.filter((output) => output.type === 'usage'), [{ usage: { inputTokens: 299, outputTokens: 12 } }], 'the served usage passes on, for billing');
});

t.test('a recorded stream that fails before any text passes its error on and commits nothing', async (t) => {
  const translation = translator.stream!('responses', context(true), recorded('a tool result sent back, streamed'));
  const outputs = decodeRecordedStream(fixture('responses-stream-error.sse'), responsesEvents()).flatMap((output) => translation.push(output));
  t.notOk(outputs.some((output) => output.type === 'event' && output.content), 'no event carries content');
  t.match(outputs.find((output) => output.type === 'error'), { error: { code: 'insufficient_quota' } });
});
