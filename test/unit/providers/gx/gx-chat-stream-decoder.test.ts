import t from 'tap';
import type { StreamOutput } from '../../../../core/index.js';
import { createGxChatStreamDecoder } from '../../../../providers/gx/chat/gx-chat-stream-decoder.js';
import { decodeAll, eventData, fixtureJson, framesOf, recordedChunks, sseFixtureChunks, sseFixtureFrames } from './fixtures/read-gx-fixtures.js';

type JsonObject = Record<string, unknown>;
interface Chunk {
  id: string;
  object: string;
  created: number;
  model: string;
  choices: { index: number; delta: JsonObject; logprobs: unknown; finish_reason: string | null }[];
  usage?: JsonObject | null;
}

const options = { model: 'gx-2.5-flash', requestId: 'req-1', created: 1_760_000_000, includeUsage: false };
const decoder = (overrides: Partial<typeof options> = {}) => createGxChatStreamDecoder({ ...options, ...overrides });
const chunks = (outputs: StreamOutput[]) => eventData(outputs).filter((data): data is Chunk => data !== '[DONE]');
const deltas = (outputs: StreamOutput[]) => chunks(outputs).flatMap((chunk) => chunk.choices.map((choice) => choice.delta));
const errors = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'error' ? [output.error] : []));
const usages = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'usage' ? [output.usage] : []));

t.test('a recorded multi-chunk CRLF stream becomes text chunks with a stable id, a finish chunk, then [DONE]', async (t) => {
  const frames = sseFixtureFrames('gemini-stream-multi-chunk.sse');
  t.equal(frames.length, 4, 'the core splitter reads four CRLF-framed events');
  const outputs = decodeAll(decoder(), frames);
  const events = outputs.filter((output) => output.type === 'event');
  t.strictSame(
    events.map((output) => output.type === 'event' && output.content),
    [true, true, true, true, false, false],
    'content chunks are content; the finish chunk and [DONE] are not',
  );
  const parsed = chunks(outputs);
  t.ok(parsed.every((chunk) => chunk.id === 'IZI2acSKMoWl0-kPmYj2yQc' && chunk.object === 'chat.completion.chunk'));
  t.ok(parsed.every((chunk) => chunk.created === 1_760_000_000 && chunk.model === 'gx-2.5-flash' && !('usage' in chunk)));
  t.strictSame(parsed[0]?.choices[0], {
    index: 0,
    delta: {
      role: 'assistant',
      content:
        "Okay, let's create a Tetris game in Python for the console! We'll use the `curses` library for a full-screen, interactive experience.\n\n**Important Notes Before You Start:**\n\n1.  **`curses",
    },
    logprobs: null,
    finish_reason: null,
  });
  t.notOk('role' in (parsed[1]?.choices[0]?.delta ?? {}), 'only the first chunk carries the role');
  t.strictSame(parsed.at(-1)?.choices, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'stop' }]);
  t.equal(parsed[3]?.choices[0]?.delta.content, ', hold functionality, sound, high scores, etc.');
  t.equal(eventData(outputs).at(-1), '[DONE]');
  t.strictSame(errors(outputs), []);
});

t.test('usage that arrives on every chunk is reported every time, the last one cumulative', async (t) => {
  const outputs = decodeAll(decoder(), framesOf(recordedChunks('gemini-stream-chunks-thinking-budget.json')));
  const reported = usages(outputs);
  t.strictSame(
    reported.map((usage) => [usage.inputTokens, usage.outputTokens, usage.reasoningTokens]),
    [
      [7, 96, 45],
      [7, 147, 45],
      [7, 198, 45],
    ],
  );
  t.equal(chunks(outputs).at(-1)?.choices[0]?.finish_reason, 'length', 'MAX_TOKENS finishes with length');
});

t.test('usage that arrives only on the last chunk is reported once', async (t) => {
  const recorded = sseFixtureChunks('gemini-stream-multi-chunk.sse');
  for (const chunk of recorded.slice(0, -1)) delete chunk.usageMetadata;
  const reported = usages(decodeAll(decoder(), framesOf(recorded)));
  t.equal(reported.length, 1);
  t.equal(reported[0]?.outputTokens, 5947 + 2042);
});

t.test('with include_usage every chunk carries usage null and a last choices-free chunk carries the usage', async (t) => {
  const outputs = decodeAll(decoder({ includeUsage: true }), sseFixtureFrames('gemini-stream-single-chunk.raw.sse'));
  const parsed = chunks(outputs);
  t.ok(parsed.slice(0, -1).every((chunk) => chunk.usage === null));
  t.strictSame(parsed.at(-1), {
    id: '4HkhaaajEJaY0-kPyI_b2A4',
    object: 'chat.completion.chunk',
    created: 1_760_000_000,
    model: 'gx-2.5-flash',
    choices: [],
    usage: {
      prompt_tokens: 8,
      completion_tokens: 30,
      total_tokens: 38,
      prompt_tokens_details: { cached_tokens: 0, text_tokens: 8, audio_tokens: 0, image_tokens: 0 },
      completion_tokens_details: { text_tokens: 7, audio_tokens: 0, image_tokens: 0, reasoning_tokens: 23 },
    },
  });
  const last = outputs.at(-1);
  t.strictSame(last, { type: 'event', data: '[DONE]', content: false });
});

t.test('without include_usage there is no usage chunk', async (t) => {
  const parsed = chunks(decodeAll(decoder(), sseFixtureFrames('gemini-stream-single-chunk.raw.sse')));
  t.ok(parsed.every((chunk) => chunk.choices.length === 1));
});

t.test('thought parts stream as reasoning_content', async (t) => {
  const response = fixtureJson<{ response: { body: JsonObject } }>('gemini-generate-thought-part.json').response.body;
  const outputs = decodeAll(decoder(), framesOf([response]));
  const [first, finish] = chunks(outputs);
  t.match(first?.choices[0]?.delta, { role: 'assistant', reasoning_content: /^\*\*Breaking Down the Sum/ });
  t.notOk('content' in (first?.choices[0]?.delta ?? {}));
  t.equal(outputs[0]?.type === 'event' && outputs[0].content, true, 'reasoning is content');
  t.equal(finish?.choices[0]?.finish_reason, 'length');
});

t.test('a gx-3 function call with a thought signature streams as one whole tool call with its signature, then finishes with tool_calls', async (t) => {
  const outputs = decodeAll(decoder({ model: 'gx-3-pro-preview' }), sseFixtureFrames('gemini3-stream-function-call-thought-signature.sse'));
  const parsed = chunks(outputs);
  t.equal(parsed.length, 2, 'the trailing empty text part adds no content chunk');
  const delta = parsed[0]?.choices[0]?.delta as { role: string; tool_calls: { index: number; id: string; type: string; function: JsonObject }[]; reasoning_details: unknown };
  t.equal(delta.role, 'assistant');
  t.equal(delta.tool_calls.length, 1);
  t.match(delta.tool_calls[0], { index: 0, id: /^call_[0-9a-f]{32}$/, type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } });
  const recorded = ((sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse')[0]!.candidates as JsonObject[])[0]!.content as { parts: JsonObject[] }).parts[0]!.thoughtSignature;
  t.strictSame(delta.reasoning_details, [{ type: 'reasoning.encrypted', data: recorded, id: delta.tool_calls[0]!.id }], 'the recorded signature rides in the chunk of its call, naming it');
  t.strictSame(parsed[1]?.choices, [{ index: 0, delta: {}, logprobs: null, finish_reason: 'tool_calls' }]);
  t.equal(usages(outputs).at(-1)?.reasoningTokens, 804);
});

t.test('a signature on an empty text part (how gx-3 ends a text answer) is a chunk of its own that carries no content', async (t) => {
  // The recorded closing chunk, with the recorded call's signature moved onto its empty text part, as upstreams.md §1.4 describes text answers.
  const [call, closing] = sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse');
  const signature = ((call!.candidates as JsonObject[])[0]!.content as { parts: JsonObject[] }).parts[0]!.thoughtSignature;
  ((closing!.candidates as JsonObject[])[0]!.content as { parts: JsonObject[] }).parts[0]!.thoughtSignature = signature;
  const outputs = decodeAll(decoder({ model: 'gx-3-pro-preview' }), framesOf([closing]));
  const events = outputs.filter((output) => output.type === 'event');
  t.strictSame(deltas(outputs)[0], { role: 'assistant', reasoning_details: [{ type: 'reasoning.encrypted', data: signature }] }, 'naming no call: it is the text’s');
  t.equal(events[0]?.type === 'event' && events[0].content, false);
  t.equal(chunks(outputs).at(-1)?.choices[0]?.finish_reason, 'stop');
});

t.test('tool calls across chunks get running indexes', async (t) => {
  const [call] = sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse');
  const second = structuredClone(call!);
  const outputs = decodeAll(decoder(), framesOf([call, second, sseFixtureChunks('gemini3-stream-function-call-thought-signature.sse')[1]]));
  const indexes = deltas(outputs).flatMap((delta) => ((delta.tool_calls as { index: number }[] | undefined) ?? []).map((call) => call.index));
  t.strictSame(indexes, [0, 1]);
});

t.test('a recorded image stream renders the image as a markdown data URI and the role-only last chunk just finishes', async (t) => {
  const outputs = decodeAll(decoder(), framesOf(recordedChunks('gemini-stream-image-output.json')));
  const contents = deltas(outputs).map((delta) => delta.content);
  t.strictSame(contents.slice(0, 3), ['I', ' will generate an image of the Eiffel Tower at night, with a vibrant and colorful', ' fireworks display exploding behind it, illuminating the sky.\n\n']);
  t.match(contents[3], /^!\[image\]\(data:image\/png;base64,iVBORw0KGgo/);
  t.equal(chunks(outputs).at(-1)?.choices[0]?.finish_reason, 'stop');
  const last = usages(outputs).at(-1);
  t.strictSame([last?.images, last?.outputModalities], [1, { text: 28, audio: 0, image: 1290 }]);
});

t.test('the id falls back to chatcmpl-<request id> and stays the same on every chunk', async (t) => {
  const recorded = sseFixtureChunks('gemini-stream-multi-chunk.sse');
  delete recorded[0]!.responseId;
  const parsed = chunks(decodeAll(decoder(), framesOf(recorded)));
  t.ok(parsed.every((chunk) => chunk.id === 'chatcmpl-req-1'));
});

t.test('unknown fields, blank frames and [DONE] frames are ignored', async (t) => {
  const [chunk] = sseFixtureChunks('gemini-stream-single-chunk.raw.sse');
  const outputs = decodeAll(decoder(), [{ data: '' }, { data: JSON.stringify({ ...chunk, brandNew: { x: 1 } }) }, { data: '[DONE]' }]);
  t.strictSame(errors(outputs), []);
  t.strictSame(deltas(outputs)[0], { role: 'assistant', content: '1, 2, 3' });
});

t.test('an in-band error frame is a retryable error for 429 and 5xx, after which the decoder is silent', async (t) => {
  const stream = decoder();
  const [first] = sseFixtureFrames('gemini-stream-multi-chunk.sse');
  t.equal(stream.push(first!).length, 2);
  const outputs = stream.push({ data: JSON.stringify(fixtureJson('gemini-error-429.json')) });
  t.match(errors(outputs), [{ statusCode: 429, code: 'upstream_rate_limited', retryable: true }]);
  t.strictSame(stream.push(first!), []);
  t.strictSame(stream.end(), [], 'no [DONE] after an error');
  t.match(errors(decoder().push({ data: '{"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}' })), [
    { statusCode: 502, retryable: true },
  ]);
});

t.test('an in-band 400 error is not retryable', async (t) => {
  t.match(errors(decoder().push({ data: '{"error": {"code": 400, "message": "bad", "status": "INVALID_ARGUMENT"}}' })), [{ statusCode: 400, retryable: false }]);
});

t.test('a blocked prompt is a 400 prompt_blocked error, its prompt usage still reported', async (t) => {
  const [chunk] = sseFixtureChunks('gemini-stream-single-chunk.raw.sse');
  delete chunk!.candidates;
  chunk!.promptFeedback = { blockReason: 'SAFETY' };
  const outputs = decoder().push({ data: JSON.stringify(chunk) });
  t.equal(usages(outputs).length, 1);
  t.match(errors(outputs), [{ statusCode: 400, code: 'prompt_blocked', retryable: false }]);
});

t.test('a stream without any candidate ends with a retryable empty_response error', async (t) => {
  const stream = decoder();
  t.match(errors(stream.end()), [{ statusCode: 502, code: 'empty_response', retryable: true }]);
  const [chunk] = sseFixtureChunks('gemini-stream-single-chunk.raw.sse');
  chunk!.candidates = [];
  t.match(errors(decodeAll(decoder(), framesOf([chunk]))), [{ code: 'empty_response' }]);
});

t.test('a stream that ends before its finish reason is a retryable truncation error, not a clean end', async (t) => {
  const outputs = decodeAll(decoder(), sseFixtureFrames('gemini-stream-multi-chunk.sse').slice(0, 3));
  t.equal(chunks(outputs).length, 3);
  t.match(outputs.at(-1), { type: 'error', error: { statusCode: 502, code: 'upstream_stream_truncated', retryable: true } });
  t.notOk(eventData(outputs).includes('[DONE]'));
});

t.test('a frame that is not JSON is a retryable 502', async (t) => {
  t.match(errors(decoder().push({ data: '{"candidates": [' })), [{ statusCode: 502, code: 'upstream_invalid_response', retryable: true }]);
});

t.test('a frame whose known fields have the wrong types is a retryable 502, however plain it looks', async (t) => {
  const wrong = [
    '{"candidates": [{"content": {"parts": [{"text": 5}]}, "index": 0}]}',
    '{"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "index": "0"}]}',
    '{"candidates": {"content": {"parts": [{"text": "hi"}]}}}',
    '{"candidates": [{"content": {"parts": [{"text": "hi", "inlineData": "not an object"}]}}]}',
    '{"candidates": [{"content": {"parts": [{"text": "hi"}]}}], "usageMetadata": {"promptTokenCount": "12"}}',
    '{"candidates": [{"content": {"parts": [{"text": "hi"}]}}], "usageMetadata": {"promptTokenCount": 1e999}}',
    '{"candidates": [{"content": {"parts": [{"text": "hi"}]}}], "responseId": 7}',
    '[{"candidates": []}]',
  ];
  for (const data of wrong) t.match(errors(decoder().push({ data })), [{ statusCode: 502, code: 'upstream_invalid_response', retryable: true }], data);
});

t.test('each chunk is written as the whole chunk object would be, key for key, with or without usage', async (t) => {
  for (const includeUsage of [false, true]) {
    const outputs = decodeAll(decoder({ includeUsage }), sseFixtureFrames('gemini-stream-multi-chunk.sse'));
    for (const output of outputs) if (output.type === 'event' && output.data !== '[DONE]') t.equal(output.data, JSON.stringify(JSON.parse(output.data)));
    t.ok(chunks(outputs).every((chunk) => Object.keys(chunk).join() === (includeUsage ? 'id,object,created,model,choices,usage' : 'id,object,created,model,choices')));
  }
});

t.test('the text of every chunk is the JSON of its object, the common text chunk included, whatever its text holds', async (t) => {
  const text = (value: string, index: number) => ({ data: JSON.stringify({ candidates: [{ content: { parts: [{ text: value }], role: 'model' }, index }], responseId: 'r-1' }) });
  const frames = [
    ...sseFixtureFrames('gemini-stream-multi-chunk.sse'),
    text('quotes " and \\ backslashes, a\nnew line, \u2028, emoji 😀 and \u0000', 0),
    text('a second choice starts with its role', 1),
    text('and goes on without it', 1),
  ];
  for (const includeUsage of [false, true]) {
    const outputs = decodeAll(decoder({ includeUsage }), frames);
    const events = outputs.filter((output) => output.type === 'event' && output.data !== '[DONE]');
    t.ok(events.length >= 7);
    for (const output of events) if (output.type === 'event') t.equal(output.data, JSON.stringify(output.value));
  }
});

t.test('several candidates stream as separate choices, each finishing on its own', async (t) => {
  const [chunk] = sseFixtureChunks('gemini-stream-single-chunk.raw.sse');
  const candidate = (chunk!.candidates as JsonObject[])[0]!;
  chunk!.candidates = [candidate, { ...candidate, index: 1, content: { parts: [{ text: '4, 5, 6' }], role: 'model' }, finishReason: 'MAX_TOKENS' }];
  const parsed = chunks(decodeAll(decoder(), framesOf([chunk])));
  t.strictSame(
    parsed.map((entry) => [entry.choices[0]?.index, entry.choices[0]?.delta, entry.choices[0]?.finish_reason]),
    [
      [0, { role: 'assistant', content: '1, 2, 3' }, null],
      [0, {}, 'stop'],
      [1, { role: 'assistant', content: '4, 5, 6' }, null],
      [1, {}, 'length'],
    ],
  );
});

t.test('a filter finish is reported as content_filter beside its finish chunk, and only then', async (t) => {
  const refusal = JSON.stringify({ candidates: [{ finishReason: 'PROHIBITED_CONTENT', index: 0 }], usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 }, responseId: 'r-1' });
  const outputs = decoder().push({ data: refusal });
  t.strictSame(
    outputs.map((output) => output.type),
    ['event', 'content_filter', 'usage'],
  );
  t.equal(chunks(outputs)[0]?.choices[0]?.finish_reason, 'content_filter');
  t.notOk(
    decodeAll(decoder(), sseFixtureFrames('gemini-stream-multi-chunk.sse')).some((output) => output.type === 'content_filter'),
    'a STOP finish is no filter',
  );
});
