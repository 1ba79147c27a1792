import t from 'tap';
import type { StreamOutput } from '../../../../core/index.js';
import { createGpChatStreamDecoder } from '../../../../providers/gp/gp-chat-stream-decoder.js';
import { decodeAll, eventData, sseFixtureFrames } from './fixtures/read-gp-fixtures.js';

const errors = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'error' ? [output.error] : []));
const usages = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'usage' ? [output.usage] : []));
const recordedUsage = { inputTokens: 16, cachedInputTokens: 0, outputTokens: 300, reasoningTokens: 0, source: 'upstream' };

t.test('the recorded include_usage stream, when the client asked for usage, passes through unchanged', async (t) => {
  const frames = sseFixtureFrames('openai-chat-stream-include-usage.sse');
  t.equal(frames.length, 7, 'six chunks and [DONE]');
  const outputs = decodeAll(createGpChatStreamDecoder({ includeUsage: true }), frames);
  t.strictSame(eventData(outputs), frames.map((frame) => frame.data), 'every data text as received, [DONE] last');
  t.strictSame(
    outputs.flatMap((output) => (output.type === 'event' ? [output.content] : [])),
    [false, true, true, true, false, false, false],
    'only chunks with text are content',
  );
  t.strictSame(usages(outputs), [recordedUsage], 'the usage chunk is billed');
  t.strictSame(errors(outputs), []);
});

t.test('the recorded include_usage stream, when the client did not ask, loses only its usage chunk', async (t) => {
  const frames = sseFixtureFrames('openai-chat-stream-include-usage.sse');
  const outputs = decodeAll(createGpChatStreamDecoder({ includeUsage: false }), frames);
  const expected = frames.map((frame) => frame.data).filter((data) => !data.includes('"choices":[]'));
  t.equal(expected.length, 6);
  t.strictSame(eventData(outputs), expected, 'the other chunks as received, then [DONE]');
  t.strictSame(usages(outputs), [recordedUsage], 'billing still sees the usage');
});

t.test('the raw stream without usage passes through byte for byte and reports no usage', async (t) => {
  const frames = sseFixtureFrames('openai-chat-stream-no-usage.raw.sse');
  const outputs = decodeAll(createGpChatStreamDecoder({ includeUsage: false }), frames);
  t.strictSame(eventData(outputs), frames.map((frame) => frame.data));
  t.equal(eventData(outputs).at(-1), '[DONE]');
  t.strictSame(usages(outputs), []);
  t.strictSame(errors(outputs), []);
});

t.test('an in-band error frame before any content is an error judged like its status, and then the decoder is silent', async (t) => {
  const decoder = createGpChatStreamDecoder({ includeUsage: false });
  const outputs = decoder.push({ data: '{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}' });
  const [error] = errors(outputs);
  t.match(error, { statusCode: 429, code: 'upstream_rate_limited', retryable: true });
  t.match(error?.message, /Rate limit reached/);
  t.strictSame(decoder.push({ data: '{"choices":[{"index":0,"delta":{"content":"late"}}]}' }), []);
  t.strictSame(decoder.end(), []);

  const invalid = errors(createGpChatStreamDecoder({ includeUsage: false }).push({ data: '{"error":{"message":"bad","type":"invalid_request_error","param":null,"code":null}}' }));
  t.match(invalid, [{ statusCode: 400, code: 'upstream_invalid_request', retryable: false }]);
  const server = errors(createGpChatStreamDecoder({ includeUsage: false }).push({ data: '{"error":{"message":"oops","type":"server_error","param":null,"code":null}}' }));
  t.match(server, [{ statusCode: 502, code: 'upstream_error', retryable: true }]);
});

t.test('a frame that is not JSON is an invalid response', async (t) => {
  const outputs = createGpChatStreamDecoder({ includeUsage: false }).push({ data: 'this is not JSON {' });
  t.match(errors(outputs), [{ statusCode: 502, code: 'upstream_invalid_response', retryable: true }]);
});

t.test('a chunk whose known fields have the wrong types is an invalid response, however plain it looks', async (t) => {
  const wrong = [
    '{"choices":[{"index":0,"delta":{"content":5}}]}',
    '{"choices":[{"index":0,"delta":{"content":"hi","tool_calls":{}}}]}',
    '{"choices":[{"index":0,"delta":"hi"}]}',
    '{"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":1}]}',
    '{"choices":{"index":0}}',
    '{"choices":[],"usage":{"prompt_tokens":"12"}}',
    '{"choices":[],"usage":{"prompt_tokens":1e999}}',
    '{"choices":[],"usage":{"prompt_tokens":12,"prompt_tokens_details":{"cached_tokens":"4"}}}',
    '{"choices":[],"usage":[12]}',
    '[{"choices":[]}]',
  ];
  for (const data of wrong) t.match(errors(createGpChatStreamDecoder({ includeUsage: false }).push({ data })), [{ statusCode: 502, code: 'upstream_invalid_response', retryable: true }], data);
});

t.test('a stream that ends without [DONE] or a finish reason broke off; one with a finish reason but no [DONE] is complete', async (t) => {
  const frames = sseFixtureFrames('openai-chat-stream-no-usage.raw.sse');
  const cut = createGpChatStreamDecoder({ includeUsage: false });
  for (const frame of frames.slice(0, 3)) cut.push(frame);
  t.match(errors(cut.end()), [{ code: 'upstream_stream_truncated', retryable: true }]);

  const undone = createGpChatStreamDecoder({ includeUsage: false });
  for (const frame of frames.slice(0, -1)) undone.push(frame);
  t.strictSame(eventData(undone.end()), ['[DONE]']);
});

t.test('blank frames are skipped', async (t) => {
  t.strictSame(createGpChatStreamDecoder({ includeUsage: false }).push({ data: '' }), []);
});

t.test('each chunk reports the characters of model text it carries, for estimating a stream that ends without usage', async (t) => {
  const frames = sseFixtureFrames('openai-chat-stream-no-usage.raw.sse');
  const outputs = decodeAll(createGpChatStreamDecoder({ includeUsage: false }), frames);
  const text = frames
    .filter((frame) => frame.data !== '[DONE]')
    .map((frame) => JSON.parse(frame.data).choices.map((choice: { delta?: { content?: string } }) => choice.delta?.content ?? '').join(''))
    .join('');
  t.ok(text.length > 0);
  const counted = outputs.reduce((sum, output) => sum + (output.type === 'event' ? (output.outputCharacters ?? 0) : 0), 0);
  t.equal(counted, text.length, 'the text, not the JSON around it');
});

t.test('a content_filter finish is reported as content_filter beside its chunk; other finishes are not', async (t) => {
  const stream = createGpChatStreamDecoder({ includeUsage: false });
  const role = stream.push({ data: '{"id":"c-1","object":"chat.completion.chunk","created":1,"model":"gpt-4.1-nano","choices":[{"index":0,"delta":{"role":"assistant","content":"","refusal":null},"logprobs":null,"finish_reason":null}]}' });
  t.strictSame(role.map((output) => output.type), ['event']);
  t.equal(role[0]?.type === 'event' && role[0].content, false, 'the role chunk is no content');
  const finish = stream.push({ data: '{"id":"c-1","object":"chat.completion.chunk","created":1,"model":"gpt-4.1-nano","choices":[{"index":0,"delta":{},"logprobs":null,"finish_reason":"content_filter"}]}' });
  t.strictSame(finish.map((output) => output.type), ['event', 'content_filter']);
  t.notOk(decodeAll(createGpChatStreamDecoder({ includeUsage: true }), sseFixtureFrames('openai-chat-stream-include-usage.sse')).some((output) => output.type === 'content_filter'));
});
