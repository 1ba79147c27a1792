import type { MessagesRequest } from '../../../../core/index.js';
import t from 'tap';
import type { StreamOutput, Usage } from '../../../../core/index.js';
import { createGpChatStreamDecoder } from '../../../../providers/gp/gp-chat-stream-decoder.js';
import { createGxChatStreamDecoder } from '../../../../providers/gx/chat/gx-chat-stream-decoder.js';
import translator from '../../../../translators/messages-to-chat/index.js';
import { sseFixtureFrames as gpFrames } from '../../providers/gp/fixtures/read-gp-fixtures.js';
import { fixtureJson, sseFixtureFrames as gxFrames } from '../../providers/gx/fixtures/read-gx-fixtures.js';
import { context, events, sdkAccumulated, translateStream } from './fixtures/messages-fixtures.js';

// The translator answers the same whatever the client asked; a request as Claude Code's plain prompt is enough.
const clientRequest: MessagesRequest = { model: 'gx-2.5-pro', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }] };

// Served streams are the providers' own decoders over recorded vendor streams: gx's chat
// chunks made from native frames, gp's the recorded OpenAI chunks. The translation is stacked
// on them as the pump stacks it.

const gxDecoder = () => createGxChatStreamDecoder({ model: 'gx-2.5-pro', requestId: 'req-gx', created: 1_764_650_000, includeUsage: true });
const gpDecoder = () => createGpChatStreamDecoder({ includeUsage: true });
const translation = () => translator.stream!('chat', context({ stream: true }), clientRequest);
const usages = (outputs: StreamOutput[]): Usage[] => outputs.flatMap((output) => (output.type === 'usage' ? [output.usage] : []));
const served = (decoder: ReturnType<typeof gxDecoder>, frames: { data: string }[]) => [...frames.flatMap((frame) => decoder.push(frame)), ...decoder.end()];

t.test('a recorded gx text stream becomes the full Messages event sequence', async (t) => {
  const outputs = translateStream(gxDecoder(), gxFrames('gemini-stream-multi-chunk.sse'), translation());
  const sequence = events(outputs);
  t.strictSame(
    sequence.map((event) => event.name),
    ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop'],
  );
  t.ok(sequence.every((event) => event.name === event.data.type), 'each event is named by its type');
  t.strictSame(
    sequence.map((event) => event.content),
    [false, false, true, true, true, true, false, false, false],
    'the text deltas carry output; the frame around them does not',
  );
  t.strictSame(sequence[1]?.data, { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
  const text = sequence.filter((event) => event.name === 'content_block_delta').map((event) => (event.data.delta as { text: string }).text);
  t.equal(sequence.filter((event) => event.name === 'content_block_delta').reduce((sum, event) => sum + event.characters, 0), text.join('').length, 'outputCharacters count the text');

  const start = sequence[0]!.data.message as Record<string, any>;
  t.strictSame({ ...start, usage: undefined }, { id: 'msg_0b6f6f0e5a384bd49a532f6f3c6b1d7e', type: 'message', role: 'assistant', model: 'gx-2.5-pro', content: [], stop_reason: null, stop_sequence: null, usage: undefined });
  const reported = usages(outputs);
  t.equal(start.usage.input_tokens, reported[0]!.inputTokens, "message_start carries the prompt's tokens gx reported with its first frame");
  t.strictSame(sequence.at(-2)?.data.delta, { stop_reason: 'end_turn', stop_sequence: null });
  t.equal((sequence.at(-2)?.data.usage as { output_tokens: number }).output_tokens, reported.at(-1)!.outputTokens, 'message_delta carries the last usage');
});

t.test("the SDK's own stream reader assembles the translated gx stream into the text gx sent", async (t) => {
  const frames = gxFrames('gemini-stream-multi-chunk.sse');
  const outputs = translateStream(gxDecoder(), frames, translation());
  const message = await sdkAccumulated(outputs);
  const chunkText = served(gxDecoder(), frames)
    .flatMap((output) => (output.type === 'event' && output.data !== '[DONE]' ? [JSON.parse(output.data)] : []))
    .map((chunk) => chunk.choices?.[0]?.delta?.content ?? '')
    .join('');
  t.equal(message.content.length, 1);
  t.equal(message.content[0]?.type === 'text' && message.content[0].text, chunkText);
  t.equal(message.stop_reason, 'end_turn');
  t.equal(message.usage.output_tokens, usages(outputs).at(-1)!.outputTokens);
});

t.test('a recorded gx function call streams as its signature on a thinking block, then a tool_use block whose input the SDK parses', async (t) => {
  const frames = gxFrames('gemini3-stream-function-call-thought-signature.sse');
  const signature = (JSON.parse(frames[0]!.data) as Record<string, any>).candidates[0].content.parts[0].thoughtSignature as string;
  const outputs = translateStream(gxDecoder(), frames, translation());
  const sequence = events(outputs);
  t.strictSame(
    sequence.slice(1, 4).map((event) => event.data),
    [
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature } },
      { type: 'content_block_stop', index: 0 },
    ],
    'the recorded signature, whole, in a signature_delta before its thinking block stops',
  );
  const start = sequence[4]!;
  const block = start.data.content_block as Record<string, unknown>;
  t.match(start.data, { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', name: 'weather', input: {} } });
  t.match(block.id, /^call_[0-9a-f]{32}$/, "the served call's id, kept");
  t.equal(start.content, true, "the tool's name is output");
  t.strictSame(sequence[5]?.data.delta, { type: 'input_json_delta', partial_json: '{"location":"San Francisco"}' });

  const message = await sdkAccumulated(outputs);
  t.equal(message.stop_reason, 'tool_use');
  t.match(message.content, [{ type: 'thinking', thinking: '', signature }, { type: 'tool_use', id: block.id, name: 'weather', input: { location: 'San Francisco' } }]);
  t.strictSame(message.content.map((item) => item.type), ['thinking', 'tool_use'], 'the SDK assembles the two blocks');
  t.equal(message.usage.input_tokens, 29);
  t.equal(message.usage.output_tokens, 819, 'candidates and thoughts, as gx bills them');
});

t.test('recorded gx thoughts stream as a thinking block before the answer', async (t) => {
  // The generateContent answer as the one frame of a stream: the same object either way (upstreams.md §1.4).
  const native = fixtureJson<{ response: { body: unknown } }>('gemini-generate-thought-part.json').response.body;
  const outputs = translateStream(gxDecoder(), [{ data: JSON.stringify(native) }], translation());
  const sequence = events(outputs);
  t.strictSame(sequence[1]?.data, { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '', signature: '' } });
  t.equal((sequence[2]?.data.delta as { type: string }).type, 'thinking_delta');
  t.equal(sequence[2]?.content, true, 'thoughts are output');
  const message = await sdkAccumulated(outputs);
  t.equal(message.stop_reason, 'max_tokens');
  t.match(message.content, [{ type: 'thinking', thinking: /^\*\*Breaking Down the Sum of Natural Numbers\*\*/ }]);
});

t.test('a signature that follows the text already streamed (how gx-3 ends a text answer) is a thinking block after it; one of no text is left out', async (t) => {
  const stream = translation();
  const chunk = (delta: Record<string, unknown>, finish: string | null = null): StreamOutput => ({ type: 'event', data: JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] }), content: true });
  const outputs = [
    ...stream.push(chunk({ role: 'assistant', content: 'Hello.' })),
    ...stream.push(chunk({ reasoning_details: [{ type: 'reasoning.encrypted', data: 'c2lnLXRleHQ=' }] })),
    ...stream.push(chunk({}, 'stop')),
    ...stream.end(),
  ];
  const message = await sdkAccumulated(outputs);
  t.strictSame(message.content, [
    { type: 'text', text: 'Hello.' },
    { type: 'thinking', thinking: '', signature: 'c2lnLXRleHQ=' },
  ]);

  const thoughtsOnly = translation();
  const unsigned = [...thoughtsOnly.push(chunk({ role: 'assistant', reasoning_content: 'Hm.', reasoning_details: [{ type: 'reasoning.encrypted', data: 'c2ln' }] })), ...thoughtsOnly.end()];
  t.notOk(events(unsigned).some((event) => (event.data.delta as { type?: string } | undefined)?.type === 'signature_delta'), 'no text to belong to');
});

t.test('a recorded gp stream: the role chunk opens nothing, and the usage of its last chunk closes it', async (t) => {
  const outputs = translateStream(gpDecoder(), gpFrames('openai-chat-stream-include-usage.sse'), translation());
  const sequence = events(outputs);
  t.equal((sequence[0]?.data.message as { usage: { input_tokens: number } }).usage.input_tokens, 0, 'gp reports usage only at the end');
  t.strictSame(sequence.filter((event) => event.name === 'content_block_start').map((event) => event.data.index), [0], 'one text block');
  const message = await sdkAccumulated(outputs);
  t.equal(message.content[0]?.type === 'text' && message.content[0].text, '**Holiday Name');
  t.equal(message.usage.input_tokens, 16, 'the SDK takes the prompt tokens from message_delta');
  t.equal(message.usage.output_tokens, 300);
});

t.test('usage and affinity outputs pass through untouched, and an error ends the translated stream', async (t) => {
  const stream = translation();
  const usage: Usage = { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3, reasoningTokens: 1, source: 'upstream' };
  const affinity: StreamOutput = { type: 'affinity', key: 'resp_1' };
  const usageOutput: StreamOutput = { type: 'usage', usage };
  t.strictSame(stream.push(affinity), [affinity]);
  const frames = gxFrames('gemini-stream-multi-chunk.sse');
  const decoder = gxDecoder();
  const first = decoder.push(frames[0]!).flatMap((output) => stream.push(output));
  t.ok(first.some((output) => output.type === 'event' && output.event === 'message_start'), 'the first frame and its usage open the stream');
  t.equal(stream.push(usageOutput)[0], usageOutput, 'the same usage object, not a translation of it');
  t.strictSame(usage, { inputTokens: 10, cachedInputTokens: 4, outputTokens: 3, reasoningTokens: 1, source: 'upstream' }, 'and unchanged');

  // The rest of the recorded stream minus its last frame: gx's decoder reports the truncation.
  const rest = [...frames.slice(1, -1).flatMap((frame) => decoder.push(frame)), ...decoder.end()].flatMap((output) => stream.push(output));
  const failure = rest.find((output) => output.type === 'error');
  t.ok(failure, "the served stream's error is passed on");
  t.strictSame(rest.slice(rest.indexOf(failure!) + 1), [], 'nothing after it');
  t.strictSame(stream.end(), [], 'no message_delta or message_stop after an error: the route writes the error event');
});
