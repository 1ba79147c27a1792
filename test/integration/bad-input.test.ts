import type { LightMyRequestResponse } from 'fastify';
import t, { type Test } from 'tap';
import { chatBody, gxChannel, issueToken, nativeBody, postChat, postNative, scenarioGateway, startGx, storedToken } from '../helpers/gateway-scenario.js';

/** The OpenAI error body with exactly its four fields, and a message that says something. */
function assertOpenAiError(t: Test, response: LightMyRequestResponse, status: number, code: string | RegExp, param?: string): void {
  t.equal(response.statusCode, status, `answers ${status}`);
  const body = response.json();
  t.same(Object.keys(body), ['error']);
  t.same(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type']);
  t.match(body.error, { code, type: status === 402 ? 'insufficient_quota' : 'invalid_request_error', message: /\S/ });
  if (param !== undefined) t.equal(body.error.param, param, `names the field ${param}`);
}

/** The native error body with exactly its three fields. */
function assertNativeError(t: Test, response: LightMyRequestResponse, status: number, statusText: string, message?: RegExp): void {
  t.equal(response.statusCode, status, `answers ${status}`);
  const body = response.json();
  t.same(Object.keys(body), ['error']);
  t.same(Object.keys(body.error).sort(), ['code', 'message', 'status']);
  t.match(body.error, { code: status, status: statusText, message: message ?? /\S/ });
}

const bmpBase64 = Buffer.concat([Buffer.from('BM'), Buffer.alloc(64, 1)]).toString('base64');
const twoMegabytes = 'x'.repeat(2 * 1024 * 1024);

t.test('bad input on the model routes is a 4xx in the route dialect, never a 5xx, and never reaches the upstream', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, {
    server: { body_limit_mb: 1 },
    providers: [gxChannel('gx-main', fake.url, { models: ['gx-2.5-pro', 'embed-*'] })],
  });
  const token = await issueToken(t, gateway);

  t.test('on /v1/chat/completions', async (t) => {
    const cases: Array<[string, unknown, number, string | RegExp, string?]> = [
      ['malformed JSON', '{"model": "gx-2.5-pro", "messages": [', 400, 'invalid_json'],
      ['a JSON array instead of an object', '[1, 2]', 400, 'invalid_request'],
      ['messages as a string', chatBody('x', { messages: 'x' }), 400, 'invalid_request', 'messages'],
      ['no messages', chatBody('x', { messages: [] }), 400, 'invalid_request', 'messages'],
      ['an unknown role', chatBody('x', { messages: [{ role: 'robot', content: 'beep' }] }), 400, 'invalid_request', 'messages[0].role'],
      ['temperature 5', chatBody('x', { temperature: 5 }), 400, 'invalid_request', 'temperature'],
      ['stream as a string', chatBody('x', { stream: 'yes' }), 400, 'invalid_request', 'stream'],
      ['max_tokens 0', chatBody('x', { max_tokens: 0 }), 400, 'invalid_request', 'max_tokens'],
      ['no model', { messages: [{ role: 'user', content: 'x' }] }, 400, 'invalid_request', 'model'],
      ['a tool_choice naming a function not in tools', chatBody('x', { tool_choice: { type: 'function', function: { name: 'ghost' } } }), 400, 'invalid_request'],
      ['an unknown model', chatBody('x', { model: 'no-such-model' }), 404, 'model_not_found', 'model'],
      [
        'a BMP image (not an accepted MIME type)',
        { model: 'gx-2.5-pro', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/bmp;base64,${bmpBase64}` } }] }] },
        400,
        'invalid_request',
        'messages[0].content[0].image_url.url',
      ],
      [
        'a malformed data URI',
        { model: 'gx-2.5-pro', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,***' } }] }] },
        400,
        'invalid_request',
        'messages[0].content[0].image_url.url',
      ],
      [
        'an image URL on a private address',
        { model: 'gx-2.5-pro', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'http://192.168.1.1/router.png' } }] }] },
        400,
        'media_url_not_allowed',
      ],
      ['a body over server.body_limit_mb', chatBody(twoMegabytes), 413, 'body_too_large'],
    ];
    for (const [what, body, status, code, param] of cases) {
      t.test(what, async (t) => assertOpenAiError(t, await postChat(gateway, token, body), status, code, param));
    }

    t.test('a body that is not JSON', async (t) => {
      assertOpenAiError(t, await postChat(gateway, token, 'hello', { headers: { 'content-type': 'text/plain' } }), 400, 'invalid_request');
      assertOpenAiError(t, await postChat(gateway, token, '<chat/>', { headers: { 'content-type': 'application/xml' } }), 415, 'unsupported_media_type');
    });

    t.test('the BMP refusal names the MIME type and what to send instead', async (t) => {
      const response = await postChat(gateway, token, {
        model: 'gx-2.5-pro',
        messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/bmp;base64,${bmpBase64}` } }] }],
      });
      t.match(response.json().error.message, /image\/bmp.*image\/png/);
    });

    t.test('a tool_choice naming a missing function says which field to change', async (t) => {
      const response = await postChat(gateway, token, chatBody('x', { tools: [{ type: 'function', function: { name: 'real' } }], tool_choice: { type: 'function', function: { name: 'ghost' } } }));
      assertOpenAiError(t, response, 400, 'invalid_request', 'tool_choice.function.name');
    });
  });

  t.test('on /v1beta/models', async (t) => {
    const cases: Array<[string, string, unknown, number, string, RegExp?]> = [
      ['malformed JSON', 'gx-2.5-pro:generateContent', '{"contents": [', 400, 'INVALID_ARGUMENT', /JSON/],
      ['an unknown method', 'gx-2.5-pro:fooContent', nativeBody('x'), 404, 'NOT_FOUND', /fooContent/],
      ['no method at all', 'gx-2.5-pro', nativeBody('x'), 404, 'NOT_FOUND'],
      ['missing contents', 'gx-2.5-pro:generateContent', { generationConfig: { temperature: 1 } }, 400, 'INVALID_ARGUMENT', /contents/],
      ['contents as a string', 'gx-2.5-pro:generateContent', { contents: 'x' }, 400, 'INVALID_ARGUMENT', /contents/],
      ['empty contents', 'gx-2.5-pro:streamGenerateContent', { contents: [] }, 400, 'INVALID_ARGUMENT', /contents/],
      ['parts that are not an array', 'gx-2.5-pro:generateContent', { contents: [{ role: 'user', parts: 'hi' }] }, 400, 'INVALID_ARGUMENT', /parts/],
      ['temperature 5', 'gx-2.5-pro:generateContent', nativeBody('x', { generationConfig: { temperature: 5 } }), 400, 'INVALID_ARGUMENT', /temperature/],
      ['an embedding without content', 'embed-1:embedContent', { model: 'models/embed-1' }, 400, 'INVALID_ARGUMENT', /content/],
      ['a batch without requests', 'embed-1:batchEmbedContents', { requests: [] }, 400, 'INVALID_ARGUMENT', /requests/],
      ['an unknown model', 'no-such-model:generateContent', nativeBody('x'), 404, 'NOT_FOUND', /no-such-model/],
      ['a body over server.body_limit_mb', 'gx-2.5-pro:generateContent', nativeBody(twoMegabytes), 413, 'INVALID_ARGUMENT', /1 MB/],
    ];
    for (const [what, call, body, status, statusText, message] of cases) {
      t.test(what, async (t) => assertNativeError(t, await postNative(gateway, token, call, body), status, statusText, message));
    }
  });

  t.test('none of it reached the upstream or cost anything', async (t) => {
    t.equal(fake.requests.length, 0);
    t.match(await storedToken(gateway, token), { used_quota: 0, remain_quota: 5_000_000 });
    const errors = gateway.logLines.filter((line) => line.includes('"level":50'));
    t.same(errors, [], 'no request was logged as a server failure');
  });
});
