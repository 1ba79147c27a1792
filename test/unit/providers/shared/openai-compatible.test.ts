import t from 'tap';
import type { ProviderHost, UpstreamRequest } from '../../../../core/index.js';
import {
  callOpenAiCompatible,
  describeOpenAiError,
  openAiErrorToGatewayError,
  readOpenAiError,
  readOpenAiErrorText,
  rejectOpenAiError,
} from '../../../../providers/shared/openai-compatible/openai-compatible.js';
import { upstreamAnswer } from '../../../helpers/upstream-answer.js';

t.test("an OpenAI error body is described by its message, type and code", async (t) => {
  const describeOpenAiErrorText = (text: string) => describeOpenAiError(readOpenAiErrorText(text));
  const body = JSON.stringify({ error: { message: 'Unsupported parameter: temperature', type: 'invalid_request_error', param: 'temperature', code: 'unsupported_parameter' } });
  t.equal(describeOpenAiErrorText(body), 'Unsupported parameter: temperature (invalid_request_error, unsupported_parameter)');
  const withoutCode = JSON.stringify({ error: { message: "Invalid file format. Supported formats: ['flac', 'm4a']", type: 'invalid_request_error', param: null, code: null } });
  t.equal(describeOpenAiErrorText(withoutCode), "Invalid file format. Supported formats: ['flac', 'm4a'] (invalid_request_error)");
  t.equal(describeOpenAiErrorText(JSON.stringify({ error: { message: null, type: 'server_error', param: null, code: null } })), 'server_error');
  t.equal(describeOpenAiErrorText(JSON.stringify({ error: { message: '', type: 'server_error', param: null, code: null } })), 'server_error');
  t.equal(describeOpenAiErrorText('<html>bad gateway</html>'), undefined);
  t.equal(describeOpenAiErrorText('{"detail":"nope"}'), undefined);
});

t.test('an in-band error is judged by its type and code', async (t) => {
  t.match(openAiErrorToGatewayError({ message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' }), { statusCode: 429, retryable: true });
  t.match(openAiErrorToGatewayError({ message: 'no money', type: 'insufficient_quota', code: 'insufficient_quota' }), { statusCode: 429, retryable: true });
  t.match(openAiErrorToGatewayError({ message: 'bad', type: 'invalid_request_error', code: null }), { statusCode: 400, retryable: false });
  t.match(openAiErrorToGatewayError({ message: 'which model', type: 'invalid_request_error', code: 'model_not_found' }), { statusCode: 404, retryable: true });
  t.match(openAiErrorToGatewayError({ message: 'broken' }), { statusCode: 502, retryable: true });
});

t.test('only an answer with an error is read as an error body', async (t) => {
  t.match(readOpenAiError({ error: { message: 'x', type: 'server_error' } }), { message: 'x' });
  t.match(readOpenAiError({ error: 'plain text' }), { message: 'plain text' });
  t.equal(readOpenAiError({ id: 'chatcmpl-1', choices: [] }), undefined);
  t.equal(readOpenAiError({ text: 'Hello.' }), undefined);
  t.equal(readOpenAiError({ error: null }), undefined);
});

t.test('an error body that came with HTTP 200 is thrown, any other answer passes', async (t) => {
  t.throws(() => rejectOpenAiError({ error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } }), { name: 'GatewayError', statusCode: 429 });
  t.doesNotThrow(() => rejectOpenAiError({ id: 'chatcmpl-1', choices: [] }));
});

t.test("an OpenAI-compatible call goes under the channel's path prefix with the key as a Bearer token, and a refusal keeps OpenAI's message", async (t) => {
  const timeouts = { connectMilliseconds: 1, firstByteMilliseconds: 1, idleMilliseconds: 1, totalMilliseconds: 1 };
  const call = { channel: { name: 'c', baseUrl: 'https://api.example.com', apiKey: 'sk-test', timeouts }, options: { path_prefix: '/v1' }, signal: new AbortController().signal };
  const sent: UpstreamRequest[] = [];
  const answer = upstreamAnswer(400, { error: { message: 'Invalid size', type: 'invalid_request_error', param: 'size', code: null } });
  const host = { http: { request: async (request: UpstreamRequest) => (sent.push(request), answer) } } as unknown as ProviderHost;
  await t.rejects(callOpenAiCompatible(host, call, '/videos/v1', { method: 'GET' }), { statusCode: 400, code: 'upstream_invalid_request', message: 'Invalid size (invalid_request_error)' });
  t.match(sent[0], { method: 'GET', url: 'https://api.example.com/v1/videos/v1', headers: { authorization: 'Bearer sk-test' } });
});
