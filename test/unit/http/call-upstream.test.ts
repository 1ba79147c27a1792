import t from 'tap';
import { GatewayError, type ProviderHost, type UpstreamRequest, type UpstreamResponse } from '../../../core/index.js';
import { callUpstream, headerValue, jsonBody, multipartBody, readDataUriBase64, retryAfterHeader } from '../../../core/kit/index.js';
import { upstreamAnswer } from '../../helpers/upstream-answer.js';

const timeouts = { connectMilliseconds: 1_000, firstByteMilliseconds: 1_000, idleMilliseconds: 1_000, totalMilliseconds: 1_000 };
const call = { channel: { name: 'c', baseUrl: 'https://api.example.com', apiKey: 'sk-test', timeouts }, signal: new AbortController().signal };

/** A host whose upstream client answers `answer` and records what it was sent. */
function hostAnswering(answer: UpstreamResponse): { host: ProviderHost; sent: UpstreamRequest[] } {
  const sent: UpstreamRequest[] = [];
  const host = { http: { request: async (request: UpstreamRequest) => (sent.push(request), answer) } } as unknown as ProviderHost;
  return { host, sent };
}

t.test('a JSON call goes out as a POST with its content type, the call’s signal and the channel’s timeouts', async (t) => {
  const { host, sent } = hostAnswering(upstreamAnswer(200, { ok: true }));
  const response = await callUpstream(host, call, { url: 'https://api.example.com/v1/x', headers: { authorization: 'Bearer sk-test' }, body: '{"a":1}' });
  t.equal(response.statusCode, 200);
  t.strictSame(sent[0], {
    method: 'POST',
    url: 'https://api.example.com/v1/x',
    headers: { 'content-type': 'application/json', authorization: 'Bearer sk-test' },
    body: '{"a":1}',
    signal: call.signal,
    timeouts,
  });
});

t.test('a call without a body sends no content type', async (t) => {
  const { host, sent } = hostAnswering(upstreamAnswer(200, {}));
  await callUpstream(host, call, { method: 'GET', url: 'https://api.example.com/v1/x', headers: { accept: 'application/json' } });
  t.strictSame(sent[0]?.headers, { accept: 'application/json' });
  t.equal(sent[0]?.body, undefined);
});

t.test("a non-2xx answer is thrown as the status's gateway error, or as the provider's own mapping", async (t) => {
  const limited = hostAnswering(upstreamAnswer(429, 'slow down', { 'retry-after': '3' }));
  await t.rejects(callUpstream(limited.host, call, { url: 'https://api.example.com/x', body: '{}' }), { statusCode: 429, code: 'upstream_rate_limited', headers: { 'retry-after': '3' } });
  const refused = hostAnswering(upstreamAnswer(400, 'nope'));
  await t.rejects(
    callUpstream(refused.host, call, { url: 'https://api.example.com/x', body: '{}' }, async (response) => new GatewayError(400, 'prompt_blocked', `blocked (${response.statusCode})`)),
    { statusCode: 400, code: 'prompt_blocked', message: 'blocked (400)' },
  );
});

t.test('JSON and multipart bodies carry their content type', async (t) => {
  t.strictSame(jsonBody({ a: 1 }), { contentType: 'application/json', body: '{"a":1}' });
  const form = new FormData();
  form.append('model', 'm');
  const multipart = await multipartBody(form);
  t.match(multipart.contentType, /^multipart\/form-data; boundary=/);
  t.match(Buffer.from(multipart.body as Uint8Array).toString(), /name="model"\r\n\r\nm/);
});

t.test('a header is read by its first value; Retry-After only as seconds', async (t) => {
  t.equal(headerValue({ headers: { 'content-type': ['video/mp4', 'text/plain'] } }, 'content-type'), 'video/mp4');
  t.equal(headerValue({ headers: {} }, 'content-type'), undefined);
  t.equal(retryAfterHeader({ headers: { 'retry-after': '7' } }), 7);
  t.equal(retryAfterHeader({ headers: { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' } }), undefined);
  t.equal(retryAfterHeader({ headers: { 'retry-after': '' } }), undefined);
});

t.test('a data: URI is read as base64 without decoding it, and a malformed one is undefined', async (t) => {
  t.strictSame(readDataUriBase64('data:image/PNG;base64,aGVs bG8='), { mimeType: 'image/png', base64: 'aGVsbG8=' });
  t.strictSame(readDataUriBase64('data:,hello%20world'), { mimeType: 'text/plain', base64: Buffer.from('hello world').toString('base64') });
  t.equal(readDataUriBase64('data:image/png;base64'), undefined, 'no comma');
  t.equal(readDataUriBase64('data:image/png;base64,@@@'), undefined, 'not base64');
  t.equal(readDataUriBase64('https://example.com/a.png'), undefined);
});
