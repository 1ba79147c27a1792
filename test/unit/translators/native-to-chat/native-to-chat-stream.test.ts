import t from 'tap';
import { GatewayError, type StreamOutput } from '../../../../core/index.js';
import { createGpChatStreamDecoder } from '../../../../providers/gp/gp-chat-stream-decoder.js';
import { createGxChatStreamDecoder } from '../../../../providers/gx/chat/gx-chat-stream-decoder.js';
import nativeToChat from '../../../../translators/native-to-chat/index.js';
import { chunkFrames, context, decodeAll, eventJson, fixtureJson, sdkRequest, sseFrames, translateAll } from './fixtures/read-translator-fixtures.js';

interface NativeChunk {
  candidates: { content: { role: string; parts?: Record<string, unknown>[] }; finishReason?: string; index: number }[];
  usageMetadata?: Record<string, number>;
  modelVersion: string;
  responseId: string;
}

const request = sdkRequest('stream-agent-settings');
function translation() {
  if (nativeToChat.stream === undefined) throw new Error('native-to-chat translates streams');
  return nativeToChat.stream('chat', context(true), request);
}
/** What a gp channel serves: its decoder asked for usage, as the translated request always asks. */
const gpServed = (frames: ReturnType<typeof chunkFrames>) => decodeAll(createGpChatStreamDecoder({ includeUsage: true }), frames);
const chunks = (outputs: StreamOutput[]) => eventJson<NativeChunk>(outputs);
const partsOf = (outputs: StreamOutput[]) => chunks(outputs).flatMap((chunk) => chunk.candidates[0]?.content.parts ?? []);
const usages = (outputs: StreamOutput[]) => outputs.filter((output) => output.type === 'usage');

t.test('the recorded OpenAI stream becomes native text chunks and a last chunk with STOP and the billed usage', async (t) => {
  const served = gpServed(sseFrames('gp/openai-chat-stream-include-usage.sse'));
  const outputs = translateAll(translation(), served);
  const native = chunks(outputs);
  t.strictSame(partsOf(outputs), [{ text: '**' }, { text: 'Holiday' }, { text: ' Name' }], 'every piece of text, in order');
  t.ok(native.every((chunk) => chunk.modelVersion === 'gp-5.4' && chunk.responseId === 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0'), 'the client’s model and the chat id on every chunk');
  t.strictSame(native.at(-1), {
    candidates: [{ content: { role: 'model' }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 16, candidatesTokenCount: 300, totalTokenCount: 316 },
    modelVersion: 'gp-5.4',
    responseId: 'chatcmpl-D8Z5oo6uDh67AD85p73ksdT1KxhE0',
  });
  t.ok(native.slice(0, -1).every((chunk) => chunk.usageMetadata === undefined && chunk.candidates[0]?.finishReason === undefined), 'usage and the finish wait for the last chunk');
  t.strictSame(
    outputs.flatMap((output) => (output.type === 'event' ? [[output.content, output.outputCharacters]] : [])),
    [
      [true, 2],
      [true, 7],
      [true, 5],
      [false, 0],
    ],
    'text chunks are content, with their characters',
  );
  t.strictSame(usages(outputs), usages(served), 'the served usage passes unchanged, for billing');
});

t.test('a recorded stream whose arguments come in pieces gives the text, then the whole call in the last chunk', async (t) => {
  const outputs = translateAll(translation(), gpServed(chunkFrames('native-to-chat/openai-chat-stream-text-then-tool-call.chunks.txt')));
  t.strictSame(partsOf(outputs), [{ text: 'PRE' }, { text: '_TOOL' }, { functionCall: { id: 'call_NZa7xqfefoaMI2YYHowVXVlU', name: 'weather', args: {} } }]);
  const last = outputs.at(-1);
  t.match(last, { type: 'event', content: true, outputCharacters: 'weather'.length + '{}'.length }, 'the call is model output');
  t.strictSame(chunks(outputs).at(-1)?.candidates[0]?.finishReason, 'STOP');
  t.strictSame(chunks(outputs).at(-1)?.usageMetadata, { promptTokenCount: 58, candidatesTokenCount: 12, totalTokenCount: 70 });
});

t.test('a recorded stream with reasoning gives thought parts, then the call, with the cached and thought counts', async (t) => {
  const outputs = translateAll(translation(), gpServed(chunkFrames('native-to-chat/grok-chat-stream-tool-call-reasoning.chunks.txt')));
  t.strictSame(partsOf(outputs), [
    { text: 'First', thought: true },
    { text: ',', thought: true },
    { text: ' the', thought: true },
    { text: ' user', thought: true },
    { functionCall: { id: 'call_79382389', name: 'weather', args: { location: 'San Francisco' } } },
  ]);
  t.strictSame(chunks(outputs).at(-1)?.usageMetadata, { promptTokenCount: 307, candidatesTokenCount: 0, totalTokenCount: 333, cachedContentTokenCount: 306, thoughtsTokenCount: 26 });
});

t.test('native to chat and back on the gx family: the recorded Gemini 3 call comes back whole, with the recorded usage', async (t) => {
  const frames = sseFrames('gx/gemini3-stream-function-call-thought-signature.sse');
  const served = decodeAll(createGxChatStreamDecoder({ model: 'gx-3-pro-preview', requestId: 'req-1', created: 1_770_000_000, includeUsage: true }), frames);
  const outputs = translateAll(translation(), served);
  const call = partsOf(outputs).find((part) => 'functionCall' in part) as { functionCall: { id: string; name: string; args: unknown } } | undefined;
  t.equal(call?.functionCall.name, 'weather');
  t.strictSame(call?.functionCall.args, { location: 'San Francisco' });
  t.match(call?.functionCall.id, /^call_[0-9a-f]{32}$/, 'the id the chat answer gave the call');
  const recorded = JSON.parse(frames.at(-1)?.data ?? '{}') as { usageMetadata: Record<string, number> };
  const { promptTokenCount, candidatesTokenCount, totalTokenCount, thoughtsTokenCount } = recorded.usageMetadata;
  t.strictSame(chunks(outputs).at(-1)?.usageMetadata, { promptTokenCount, candidatesTokenCount, totalTokenCount, thoughtsTokenCount });
});

t.test('native to chat and back on the gx family: a recorded MAX_TOKENS stream keeps its text and its finish', async (t) => {
  const recorded = fixtureJson<{ response: { chunks: unknown[] } }>('gx/gemini-stream-chunks-thinking-budget.json').response.chunks;
  const served = decodeAll(
    createGxChatStreamDecoder({ model: 'gx-2.5-flash', requestId: 'req-1', created: 1_770_000_000, includeUsage: true }),
    recorded.map((chunk) => ({ data: JSON.stringify(chunk) })),
  );
  const outputs = translateAll(translation(), served);
  const texts = (values: unknown[]) => values.map((chunk) => ((chunk as NativeChunk).candidates[0]?.content.parts ?? []).map((part) => part.text).join('')).join('');
  t.equal(texts(chunks(outputs)), texts(recorded), 'the same text');
  t.equal(chunks(outputs).at(-1)?.candidates[0]?.finishReason, 'MAX_TOKENS');
});

t.test('an error in the served stream passes unchanged and ends the client’s stream without a last chunk', async (t) => {
  const frames = sseFrames('gp/openai-chat-stream-include-usage.sse');
  const served = gpServed(frames.slice(0, 3));
  const error = served.find((output) => output.type === 'error');
  t.ok(error !== undefined, 'the cut stream ends in an error');
  const outputs = translateAll(translation(), served);
  t.strictSame(outputs.at(-1), error, 'the error is the last output');
  t.strictSame(partsOf(outputs), [{ text: '**' }, { text: 'Holiday' }]);
  const stream = translation();
  const broken = stream.push({ type: 'event', data: 'not JSON {', content: true });
  t.ok(broken[0]?.type === 'error' && broken[0].error instanceof GatewayError && broken[0].error.code === 'upstream_invalid_response');
  t.strictSame(stream.end(), [], 'nothing after the error');
});

t.test('a stream that ends without [DONE] still gets its last chunk, once', async (t) => {
  const served = gpServed(sseFrames('gp/openai-chat-stream-include-usage.sse')).filter((output) => !(output.type === 'event' && output.data === '[DONE]'));
  const stream = translation();
  const outputs = [...served.flatMap((output) => stream.push(output)), ...stream.end(), ...stream.end()];
  t.equal(chunks(outputs).filter((chunk) => chunk.candidates[0]?.finishReason !== undefined).length, 1);
});
