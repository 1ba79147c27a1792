import type { LightMyRequestResponse } from 'fastify';
import t from 'tap';
import { gxChannel, issueToken, scenarioGateway, startGx, type IssuedToken } from '../helpers/gateway-scenario.js';
import type { TestApp } from '../helpers/build-test-app.js';

/** POST /v1/embeddings as the token (no token: no credential at all). */
function postEmbeddings(gateway: TestApp, token: IssuedToken | undefined, body: unknown): Promise<LightMyRequestResponse> {
  return gateway.app.inject({
    method: 'POST',
    url: '/v1/embeddings',
    headers: { ...(token === undefined ? {} : token.bearer), 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const embeddingsBody = (fields: Record<string, unknown> = {}) => ({ model: 'text-embedding-004', input: 'hello', ...fields });

t.test('bad input on /v1/embeddings is a 400 in the OpenAI shape naming the field, and never reaches the upstream', async (t) => {
  const fake = await startGx(t);
  const gateway = await scenarioGateway(t, { providers: [gxChannel('gx-main', fake.url, { models: ['text-embedding-004'] })] });
  const token = await issueToken(t, gateway);

  const cases: Array<[string, unknown, string | undefined, RegExp]> = [
    ['malformed JSON', '{"model": "text-embedding-004", "input": [', undefined, /JSON/],
    ['no model', { input: 'hello' }, 'model', /required/],
    ['no input', { model: 'text-embedding-004' }, 'input', /required/],
    ['input as an object', embeddingsBody({ input: { text: 'hello' } }), 'input', /expected a string, an array of strings, an array of token ids or an array of token-id arrays/],
    ['an empty string', embeddingsBody({ input: '' }), 'input', /must not be empty/],
    ['an empty array', embeddingsBody({ input: [] }), 'input', /expected at least one input/],
    ['an empty string among the strings', embeddingsBody({ input: ['a', 'b', ''] }), 'input[2]', /expected a non-empty string, as the first input is/],
    ['a number among the strings', embeddingsBody({ input: ['a', 5] }), 'input[1]', /expected a non-empty string/],
    ['a negative token id', embeddingsBody({ input: [1, -2] }), 'input[1]', /whole number of at least 0/],
    ['an empty token array', embeddingsBody({ input: [[1], []] }), 'input[1]', /non-empty array of token ids/],
    ['an object as the first input', embeddingsBody({ input: [{}] }), 'input[0]', /expected a string, a token id or an array of token ids/],
    ['more than 2048 inputs', embeddingsBody({ input: Array.from({ length: 2049 }, () => 'x') }), 'input', /at most 2048 inputs; split them/],
    ['an encoding OpenAI does not have', embeddingsBody({ encoding_format: 'hex' }), 'encoding_format', /expected float or base64/],
    ['dimensions 0', embeddingsBody({ dimensions: 0 }), 'dimensions', /at least 1/],
    ['dimensions 1.5', embeddingsBody({ dimensions: 1.5 }), 'dimensions', /whole number/],
    ['user as a number', embeddingsBody({ user: 5 }), 'user', /expected a string/],
    ['a misspelt field', embeddingsBody({ dimension: 256 }), 'dimension', /unknown field "dimension" in the body; check its spelling/],
  ];
  for (const [what, body, param, message] of cases) {
    t.test(what, async (t) => {
      const response = await postEmbeddings(gateway, token, body);
      t.equal(response.statusCode, 400);
      const { error } = response.json() as { error: { type: string; param: string | null; message: string } };
      t.equal(error.type, 'invalid_request_error');
      t.equal(error.param, param ?? null);
      t.match(error.message, message);
    });
  }

  t.test('no API key is a 401 in the OpenAI shape', async (t) => {
    const response = await postEmbeddings(gateway, undefined, embeddingsBody());
    t.equal(response.statusCode, 401);
    t.match(response.json(), { error: { type: 'authentication_error' } });
  });

  t.equal(fake.requests.length, 0, 'the upstream saw none of them');
});
