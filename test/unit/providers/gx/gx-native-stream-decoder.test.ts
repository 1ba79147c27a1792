import t from 'tap';
import type { StreamOutput } from '../../../../core/index.js';
import { createGxNativeStreamDecoder } from '../../../../providers/gx/native/gx-native-stream-decoder.js';
import { readGxNativeUsage } from '../../../../providers/gx/native/gx-native-operations.js';
import { decodeAll, fixtureJson, framesOf, recordedChunks, sseFixtureChunks, sseFixtureFrames } from './fixtures/read-gx-fixtures.js';

const events = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'event' ? [output] : []));
const usages = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'usage' ? [output.usage] : []));
const errors = (outputs: StreamOutput[]) => outputs.flatMap((output) => (output.type === 'error' ? [output.error] : []));

t.test('every recorded frame is re-emitted with its data text unchanged, and no [DONE] follows', async (t) => {
  const frames = sseFixtureFrames('gemini-stream-multi-chunk.sse');
  const outputs = decodeAll(createGxNativeStreamDecoder(), frames);
  t.strictSame(
    events(outputs).map((output) => output.data),
    frames.map((frame) => frame.data),
  );
  t.ok(events(outputs).every((output) => output.content && output.event === undefined));
  t.strictSame(errors(outputs), []);
});

t.test('a frame counts as content only when a candidate in it has parts', async (t) => {
  const outputs = decodeAll(createGxNativeStreamDecoder(), framesOf(recordedChunks('gemini-stream-image-output.json')));
  t.strictSame(
    events(outputs).map((output) => output.content),
    [true, true, true, true, false],
    'the role-only closing chunk of an image stream carries nothing',
  );
});

t.test('usage is reported from every frame that carries it, with the images produced so far', async (t) => {
  const reported = usages(decodeAll(createGxNativeStreamDecoder(), framesOf(recordedChunks('gemini-stream-image-output.json'))));
  t.equal(reported.length, 5);
  t.strictSame([reported[0]?.outputTokens, reported[0]?.images], [1, undefined]);
  t.strictSame([reported[4]?.inputTokens, reported[4]?.outputTokens, reported[4]?.images], [15, 1318, 1]);
});

t.test('an error frame becomes an error output and the decoder then stays silent', async (t) => {
  const decoder = createGxNativeStreamDecoder();
  const [first] = sseFixtureFrames('gemini-stream-single-chunk.raw.sse');
  t.match(errors(decoder.push({ data: JSON.stringify(fixtureJson('gemini-error-429.json')) })), [{ statusCode: 429, retryable: true }]);
  t.strictSame(decoder.push(first!), []);
  t.strictSame(decoder.end(), []);
});

t.test('a frame of an unexpected shape is forwarded as it is; one that is not JSON is an error', async (t) => {
  const decoder = createGxNativeStreamDecoder();
  t.strictSame(decoder.push({ data: '{"candidates": "odd"}' }), [{ type: 'event', data: '{"candidates": "odd"}', content: false }]);
  t.match(errors(decoder.push({ data: 'not json' })), [{ statusCode: 502, retryable: true }]);
});

t.test('a stream without any frame ends with a retryable empty_response error', async (t) => {
  t.match(errors(createGxNativeStreamDecoder().end()), [{ statusCode: 502, code: 'empty_response', retryable: true }]);
});

t.test('the usage of a forwarded non-stream answer is read from its usageMetadata', async (t) => {
  const usage = readGxNativeUsage(sseFixtureChunks('gemini-stream-single-chunk.raw.sse')[0]);
  t.strictSame([usage.inputTokens, usage.outputTokens, usage.reasoningTokens, usage.source], [8, 30, 23, 'upstream']);
  t.strictSame(readGxNativeUsage({ candidates: [] }), { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, source: 'estimated' });
  t.equal(readGxNativeUsage('nonsense').source, 'estimated');
});

t.test('a stream that carried output but ended before any finishReason broke off, and ends in an error', async (t) => {
  const frames = sseFixtureFrames('gemini-stream-multi-chunk.sse');
  const outputs = decodeAll(createGxNativeStreamDecoder(), frames.slice(0, 1));
  t.match(errors(outputs), [{ code: 'upstream_stream_truncated', statusCode: 502 }]);
  t.strictSame(errors(decodeAll(createGxNativeStreamDecoder(), frames)), [], 'the whole recording ends cleanly');
});

t.test('a filter stop or a blocked prompt is passed through and reported as content_filter; a STOP is not', async (t) => {
  const stopped = JSON.stringify({ candidates: [{ finishReason: 'SAFETY', index: 0 }], usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } });
  const outputs = createGxNativeStreamDecoder().push({ data: stopped });
  t.strictSame(outputs.map((output) => output.type), ['event', 'content_filter', 'usage']);
  t.equal(events(outputs)[0]?.data, stopped, 'the frame goes out unchanged');
  t.equal(events(outputs)[0]?.content, false);
  const blocked = createGxNativeStreamDecoder().push({ data: JSON.stringify({ promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } }) });
  t.ok(blocked.some((output) => output.type === 'content_filter'), 'a blocked prompt');
  t.notOk(decodeAll(createGxNativeStreamDecoder(), sseFixtureFrames('gemini-stream-multi-chunk.sse')).some((output) => output.type === 'content_filter'));
});
