import { readFileSync } from 'node:fs';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { estimateMessagesInputTokens } from '../../core/billing/estimate-messages-usage.js';
import { tokensPerImage } from '../../core/billing/inline-media-tokens.js';
import { gxChannel, issueToken, scenarioGateway, startGx, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

// What the Messages routes answer before any channel is reached: validation, authentication
// and count_tokens, all in Anthropic's shapes. Claude Code's recorded requests are from
// test/fixtures/agents/claude-code/ (see its README).

const claudeCode = (name: string) =>
  (JSON.parse(readFileSync(new URL(`../fixtures/agents/claude-code/${name}.json`, import.meta.url), 'utf8')) as { requests: { body: Record<string, unknown> }[] })
    .requests;

const messagesBody = (fields: Record<string, unknown> = {}) => ({ model: 'gx-2.5-pro', max_tokens: 64, messages: [{ role: 'user', content: 'Say hello.' }], ...fields });

function post(gateway: TestApp, url: string, payload: unknown, headers: InjectOptions['headers'] = {}): Promise<LightMyRequestResponse> {
  return gateway.app.inject({ method: 'POST', url, payload: payload as InjectOptions['payload'], headers: { 'anthropic-version': '2023-06-01', ...headers } });
}
const withKey = (token: IssuedToken) => ({ 'x-api-key': `sk-${token.key}` });

t.test('the Messages routes check requests and keys and count tokens, answering in Anthropic shapes', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url)] });
  const token = await issueToken(t, gateway);

  t.test('a request without a key is a 401 authentication_error that says where the key goes', async (t) => {
    const response = await post(gateway, '/v1/messages', messagesBody());
    t.equal(response.statusCode, 401);
    t.strictSame(response.json(), { type: 'error', error: { type: 'authentication_error', message: 'missing API key: send Authorization: Bearer sk-... or x-api-key' } });
    t.equal(response.headers['request-id'], response.headers['x-request-id'], 'the request id under the name the Anthropic SDK reports');
  });

  t.test('an unknown x-api-key is a 401 in the same shape', async (t) => {
    const response = await post(gateway, '/v1/messages', messagesBody(), { 'x-api-key': 'sk-not-a-real-key-at-all-0000000000' });
    t.equal(response.statusCode, 401);
    t.equal(response.json().type, 'error');
    t.equal(response.json().error.type, 'authentication_error');
  });

  t.test('two different keys in x-api-key and Authorization are refused, not one silently chosen', async (t) => {
    const response = await post(gateway, '/v1/messages/count_tokens', messagesBody(), { ...withKey(token), authorization: 'Bearer sk-another-key-0000000000000000' });
    t.equal(response.statusCode, 400);
    t.equal(response.json().error.type, 'invalid_request_error');
  });

  t.test('a body without max_tokens is a 400 invalid_request_error naming the field', async (t) => {
    const { max_tokens: _maxTokens, ...body } = messagesBody();
    const response = await post(gateway, '/v1/messages', body, withKey(token));
    t.equal(response.statusCode, 400);
    t.strictSame(response.json(), { type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: required' } });
  });

  t.test('an unknown field is refused by name', async (t) => {
    const response = await post(gateway, '/v1/messages', messagesBody({ temprature: 0.5 }), withKey(token));
    t.equal(response.statusCode, 400);
    t.equal(response.json().error.message, 'unknown field "temprature" in the body; check its spelling');
  });

  t.test("an Anthropic server tool is refused by its type, with what to declare instead", async (t) => {
    const response = await post(gateway, '/v1/messages', messagesBody({ tools: [{ type: 'web_search_20250305', name: 'web_search', max_uses: 3 }] }), withKey(token));
    t.equal(response.statusCode, 400);
    t.match(response.json().error.message, /^tools\[0\]\.type: the Anthropic tool type "web_search_20250305" is not served by this gateway; declare a custom tool/);
  });

  t.test('MCP servers and containers are refused by name', async (t) => {
    for (const [field, value] of [
      ['mcp_servers', [{ type: 'url', url: 'https://mcp.example.com/sse', name: 'example' }]],
      ['container', 'container_011'],
    ] as const) {
      const response = await post(gateway, '/v1/messages', messagesBody({ [field]: value }), withKey(token));
      t.equal(response.statusCode, 400, field);
      t.match(response.json().error.message, new RegExp(`^${field}: `), `the message starts with ${field}`);
    }
  });

  t.test("what Claude Code sends, on the path it sends it to, passes the route's validation", async (t) => {
    for (const body of [...claudeCode('plain'), ...claudeCode('tool')].map((request) => request.body)) {
      const response = await post(gateway, '/v1/messages?beta=true', body, withKey(token));
      t.not(response.statusCode, 400, response.statusCode === 400 ? response.payload : 'not refused as bad input');
    }
  });

  t.test('count_tokens answers the estimate of system, tools and messages, labelled as an estimate', async (t) => {
    const [body] = claudeCode('tool').map((request) => request.body);
    const { max_tokens: _maxTokens, stream: _stream, metadata: _metadata, ...prompt } = body!;
    const response = await post(gateway, '/v1/messages/count_tokens', prompt, withKey(token));
    t.equal(response.statusCode, 200, response.payload);
    t.equal(response.headers['x-token-count'], 'estimated');
    const count = response.json().input_tokens as number;
    t.equal(count, estimateMessagesInputTokens(prompt as Parameters<typeof estimateMessagesInputTokens>[0]));
    const withoutTools = await post(gateway, '/v1/messages/count_tokens', { ...prompt, tools: [] }, withKey(token));
    t.ok(count > (withoutTools.json().input_tokens as number) + 1000, "Claude Code's tool schemas are counted: they are a large part of its prompt");
  });

  t.test('count_tokens counts an inline image by rule, not by the size of its base64', async (t) => {
    const data = Buffer.alloc(300_000, 7).toString('base64');
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data } };
    const plain = await post(gateway, '/v1/messages/count_tokens', { model: 'gx-2.5-pro', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }] }] }, withKey(token));
    const pictured = await post(gateway, '/v1/messages/count_tokens', { model: 'gx-2.5-pro', messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, image] }] }, withKey(token));
    const added = (pictured.json().input_tokens as number) - (plain.json().input_tokens as number);
    t.ok(added >= tokensPerImage && added < tokensPerImage + 50, `the image adds ${added} tokens, about one image's ${tokensPerImage}`);
  });

  t.test("count_tokens keeps to the key's model limits: another model is a 403 permission_error", async (t) => {
    const limited = await issueToken(t, gateway, { model_limits_enabled: true, model_limits: ['gx-3-pro-preview'] });
    const response = await post(gateway, '/v1/messages/count_tokens', { model: 'gx-2.5-pro', messages: [{ role: 'user', content: 'hi' }] }, withKey(limited));
    t.equal(response.statusCode, 403);
    t.equal(response.json().error.type, 'permission_error');
  });

  t.test('Bearer keys work on the Messages routes too', async (t) => {
    const response = await post(gateway, '/v1/messages/count_tokens', { model: 'gx-2.5-pro', messages: [{ role: 'user', content: 'hi' }] }, token.bearer);
    t.equal(response.statusCode, 200);
  });

  t.test('an unknown path under /v1/messages answers in the Anthropic shape', async (t) => {
    const response = await post(gateway, '/v1/messages/batches', {}, withKey(token));
    t.equal(response.statusCode, 404);
    t.equal(response.json().type, 'error');
    t.equal(response.json().error.type, 'not_found_error');
  });
});
