import t from 'tap';
import type { UpstreamBody } from '../../../core/contracts/provider/upstream-http.js';
import { upstreamResponseTooLarge } from '../../../core/errors/error-codes.js';
import { parseUpstreamJson, readUpstreamAnswer } from '../../../core/http/upstream-json.js';
import { maxJsonDepthCeiling } from '../../../core/validation/json-depth.js';

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);

t.test('upstream JSON nested past the ceiling is refused as not JSON, however it is spaced', async (t) => {
  t.throws(() => parseUpstreamJson(nested(maxJsonDepthCeiling + 1)), SyntaxError);
  t.throws(() => parseUpstreamJson(nested(maxJsonDepthCeiling + 1) + ' '.repeat(5000)), SyntaxError);
});

t.test('upstream JSON at the ceiling, long or short, is read', async (t) => {
  t.equal(JSON.stringify(parseUpstreamJson(nested(maxJsonDepthCeiling))).length, 2 * maxJsonDepthCeiling);
  t.same(parseUpstreamJson(JSON.stringify({ text: 'x'.repeat(10_000), list: [1, [2, [3]]] })), { text: 'x'.repeat(10_000), list: [1, [2, [3]]] });
  t.same(parseUpstreamJson('{"candidates":[{"content":{"parts":[{"text":"hi"}]}}]}'), { candidates: [{ content: { parts: [{ text: 'hi' }] } }] });
});

t.test('text that is not JSON is refused', async (t) => {
  t.throws(() => parseUpstreamJson('data: {'), SyntaxError);
});

t.test('an answer past max_response_mb keeps its code when read as an answer, and is final where a task may have started', async (t) => {
  const tooLarge = () => ({ json: async () => Promise.reject(upstreamResponseTooLarge(1024)) }) as unknown as UpstreamBody;
  await t.rejects(readUpstreamAnswer(tooLarge(), 'a task object'), { code: 'upstream_response_too_large', retryable: true });
  await t.rejects(readUpstreamAnswer(tooLarge(), 'a created task', { retryable: false }), { code: 'upstream_response_too_large', retryable: false });
});
