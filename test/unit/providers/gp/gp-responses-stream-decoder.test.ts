import t from 'tap';
import type { SseFrame, StreamOutput } from '../../../../core/index.js';
import { createGpResponsesStreamDecoder } from '../../../../providers/gp/gp-responses-stream-decoder.js';
import { decodeAll, eventData, sseFixtureFrames } from './fixtures/read-gp-fixtures.js';

const errors = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'error' ? [output.error] : []));
const usages = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'usage' ? [output.usage] : []));
const affinityKeys = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'affinity' ? [output.key] : []));
const events = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'event' ? [output] : []));

t.test('the recorded text stream passes through event for event, each with its event name and data as received', async (t) => {
  const frames = sseFixtureFrames('openai-responses-stream-text.sse');
  t.equal(frames.length, 16);
  const outputs = decodeAll(createGpResponsesStreamDecoder(), frames);
  t.strictSame(eventData(outputs), frames.map((frame) => frame.data));
  t.strictSame(
    events(outputs).map((output) => output.event),
    frames.map((frame) => frame.event),
  );
  t.strictSame(errors(outputs), []);
});

t.test('the response id from response.created becomes the affinity key', async (t) => {
  const outputs = decodeAll(createGpResponsesStreamDecoder(), sseFixtureFrames('openai-responses-stream-text.sse'));
  t.strictSame(affinityKeys(outputs), ['resp_01830d662ab3856501693c3217ba4c8190a3ddf6c839d4f12a']);
});

t.test('usage comes from response.completed', async (t) => {
  const outputs = decodeAll(createGpResponsesStreamDecoder(), sseFixtureFrames('openai-responses-stream-text.sse'));
  t.strictSame(usages(outputs), [{ inputTokens: 299, cachedInputTokens: 0, outputTokens: 12, reasoningTokens: 0, source: 'upstream' }]);
});

t.test('only events after created and in_progress are content, so a failure before them can fail over', async (t) => {
  const outputs = decodeAll(createGpResponsesStreamDecoder(), sseFixtureFrames('openai-responses-stream-text.sse'));
  const content = events(outputs).map((output) => output.content);
  t.strictSame(content.slice(0, 3), [false, false, true]);
  t.ok(content.slice(2).every(Boolean));
});

t.test('the recorded insufficient_quota error event before any content is a retryable 429, and the decoder then stays silent', async (t) => {
  const frames = sseFixtureFrames('openai-responses-stream-error.sse');
  const outputs = decodeAll(createGpResponsesStreamDecoder(), frames);
  const [error] = errors(outputs);
  t.equal(errors(outputs).length, 1, 'response.failed after the error adds nothing');
  t.equal(error?.statusCode, 429);
  t.equal(error?.retryable, true);
  t.match(error?.message, /exceeded your current quota/);
  t.ok(events(outputs).every((output) => !output.content), 'nothing before the error was content');
});

t.test('a response.failed without an error event is a retryable upstream error with its message', async (t) => {
  const failed: SseFrame = {
    event: 'response.failed',
    data: JSON.stringify({ type: 'response.failed', sequence_number: 1, response: { id: 'resp_1', status: 'failed', error: { code: 'server_error', message: 'boom' } } }),
  };
  const [error] = errors(decodeAll(createGpResponsesStreamDecoder(), [failed]));
  t.equal(error?.statusCode, 502);
  t.equal(error?.retryable, true);
  t.match(error?.message, /boom/);
});

t.test('a stream that stops before a terminal event is reported as truncated', async (t) => {
  const frames = sseFixtureFrames('openai-responses-stream-text.sse').slice(0, 8);
  const [error] = errors(decodeAll(createGpResponsesStreamDecoder(), frames));
  t.equal(error?.code, 'upstream_stream_truncated');
});

t.test('a [DONE] after the terminal event is tolerated and not passed on', async (t) => {
  const frames = [...sseFixtureFrames('openai-responses-stream-text.sse'), { data: '[DONE]' }];
  const outputs = decodeAll(createGpResponsesStreamDecoder(), frames);
  t.notOk(eventData(outputs).includes('[DONE]'));
  t.strictSame(errors(outputs), []);
});

t.test('an event that is not JSON is a retryable invalid response', async (t) => {
  const [error] = errors(decodeAll(createGpResponsesStreamDecoder(), [{ event: 'response.created', data: '{not json' }]));
  t.equal(error?.code, 'upstream_invalid_response');
  t.equal(error?.retryable, true);
});

t.test('only deltas count as output characters, each its delta text, escapes as one character', async (t) => {
  const frames = sseFixtureFrames('openai-responses-stream-text.sse');
  const outputs = decodeAll(createGpResponsesStreamDecoder(), frames);
  const deltas = frames.filter((frame) => frame.event?.endsWith('.delta')).map((frame) => JSON.parse(frame.data).delta as string);
  t.ok(deltas.length > 0);
  const counted = events(outputs).reduce((sum, output) => sum + (output.outputCharacters ?? 0), 0);
  t.equal(counted, deltas.join('').length, 'the text of the deltas, not the .done events repeating it');

  const escaped = createGpResponsesStreamDecoder().push({ event: 'response.output_text.delta', data: JSON.stringify({ type: 'response.output_text.delta', delta: 'a"b\\c\u00e9\n' }) });
  t.match(escaped, [{ type: 'event', outputCharacters: 'a"b\\c\u00e9\n'.length }]);
  const unicodeEscape = createGpResponsesStreamDecoder().push({ event: 'response.output_text.delta', data: '{"type":"response.output_text.delta","delta":"caf\\u00e9!"}' });
  t.match(unicodeEscape, [{ type: 'event', outputCharacters: 'café!'.length }]);
});
