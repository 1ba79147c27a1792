import t from 'tap';
import { z } from 'zod';
import { promptBlocked } from '../../../core/index.js';
import { createStatusErrorMapper, errorForUpstreamBody, upstreamStatusError, type UpstreamErrorDialect } from '../../../core/kit/index.js';
import { upstreamAnswer } from '../../helpers/upstream-answer.js';

// A made-up dialect with every hook: `{"fault": {text, code, wait, channel}}`.
const faultSchema = z.looseObject({
  fault: z.looseObject({ text: z.string().nullish(), code: z.string().nullish(), wait: z.number().nullish(), channel: z.boolean().nullish() }),
});
const dialect: UpstreamErrorDialect<z.output<typeof faultSchema>> = {
  errorSchema: faultSchema,
  describe: (body) => (body.fault.text === undefined || body.fault.text === null ? undefined : `${body.fault.text} (${body.fault.code ?? 'no code'})`),
  retryAfterSeconds: (body) => body.fault.wait ?? undefined,
  statusOf: (body, status) => (body.fault.channel === true && status === 400 ? 401 : undefined),
  errorOf: (body) => (body.fault.code === 'Blocked' ? promptBlocked('blocked upstream; change the prompt') : undefined),
};
const mapper = createStatusErrorMapper(dialect);

t.test("a body the dialect reads gives the error the upstream's own words, judged by the status line", async (t) => {
  const error = await mapper(upstreamAnswer(400, { fault: { text: 'size is odd', code: 'BadSize' } }));
  t.match(error, { statusCode: 400, code: 'upstream_invalid_request', message: 'size is odd (BadSize)', retryable: false });
  t.match(await mapper(upstreamAnswer(503, { fault: { text: 'overloaded' } })), { statusCode: 502, code: 'upstream_error', message: /overloaded \(no code\)/, retryable: true });
});

t.test('a body the dialect does not read, or one without words, leaves the status line to speak alone', async (t) => {
  t.match(await mapper(upstreamAnswer(502, '<html>bad gateway</html>')), { statusCode: 502, message: /the upstream answered HTTP 502/, retryable: true });
  t.match(await mapper(upstreamAnswer(400, { other: 'shape' })), { statusCode: 400, message: 'the upstream answered HTTP 400' });
  t.match(await mapper(upstreamAnswer(400, { fault: {} })), { statusCode: 400, message: 'the upstream answered HTTP 400' });
});

t.test("a 429 waits as its Retry-After header says, else as its body asks", async (t) => {
  const byHeader = await mapper(upstreamAnswer(429, { fault: { text: 'slow down', wait: 30 } }, { 'retry-after': '3' }));
  t.match(byHeader, { statusCode: 429, code: 'upstream_rate_limited', retryable: true, headers: { 'retry-after': '3' } });
  const byBody = await mapper(upstreamAnswer(429, { fault: { text: 'slow down', wait: 4.2 } }));
  t.match(byBody, { statusCode: 429, headers: { 'retry-after': '5' } });
  t.strictSame((await mapper(upstreamAnswer(429, { fault: { text: 'slow down' } }))).headers, {}, 'no delay from either: none is asked');
});

t.test('the status the body means is judged in place of the status line', async (t) => {
  const error = await mapper(upstreamAnswer(400, { fault: { text: 'key refused', code: 'KeyInvalid', channel: true } }));
  t.match(error, { statusCode: 502, code: 'upstream_auth_failed', retryable: true });
});

t.test("the dialect's own error wins over the status judgement", async (t) => {
  t.match(await mapper(upstreamAnswer(400, { fault: { text: 'nope', code: 'Blocked' } })), { statusCode: 400, code: 'prompt_blocked', retryable: false });
});

t.test('an in-band error is judged the same way, from the status it stands for', async (t) => {
  t.match(errorForUpstreamBody(500, { fault: { text: 'broken', code: 'Internal' } }, dialect), { statusCode: 502, code: 'upstream_error', message: /broken \(Internal\)/ });
  t.match(errorForUpstreamBody(429, undefined, dialect, 2), { statusCode: 429, headers: { 'retry-after': '2' }, message: /HTTP 429/ });
});

t.test('without a dialect the status alone is judged, and the body is still read so the connection is let go', async (t) => {
  let read = false;
  const answer = upstreamAnswer(404, { fault: { text: 'not read' } });
  const body = answer.body[Symbol.asyncIterator].bind(answer.body);
  answer.body[Symbol.asyncIterator] = () => ((read = true), body());
  const error = await upstreamStatusError(answer);
  t.match(error, { statusCode: 404, code: 'model_not_found', retryable: true });
  t.notMatch(error.message, /not read/);
  t.ok(read, 'the body was read');
});
