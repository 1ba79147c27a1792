import t from 'tap';
import { issueToken, scenarioGateway } from '../helpers/gateway-scenario.js';

const multipart = (boundary: string, parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>) =>
  Buffer.concat([
    ...parts.flatMap((part) => [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}\r\n` +
          (part.type === undefined ? '' : `Content-Type: ${part.type}\r\n`) +
          '\r\n',
      ),
      Buffer.isBuffer(part.value) ? part.value : Buffer.from(part.value),
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`--${boundary}--\r\n`),
  ]);

t.test('the image routes answer in the images error shape before any family is involved', async (t) => {
  const gateway = await scenarioGateway(t, { security: { encryption_key: 'test-encryption-key-0123456789abcdef', media: { max_bytes: 1024 } } });
  const token = await issueToken(t, gateway);
  const post = (url: string, payload: string | Buffer, headers: Record<string, string> = {}) =>
    gateway.app.inject({ method: 'POST', url, headers: { ...token.bearer, 'content-type': 'application/json', ...headers }, payload });

  for (const url of ['/v1/images/generations', '/v1/images/edits']) {
    t.test(`${url}: a model no channel serves is 400 invalid_request`, async (t) => {
      const response = await post(url, JSON.stringify({ model: 'no-such-image-model', prompt: 'a cat' }));
      t.equal(response.statusCode, 400);
      t.strictSame(response.json(), { error: { message: response.json().error.message, type: 'invalid_request_error', code: 'invalid_request' } });
      t.match(response.json().error.message, /no-such-image-model/);
    });

    t.test(`${url}: a wrong key is 401 invalid_authentication`, async (t) => {
      const response = await gateway.app.inject({ method: 'POST', url, headers: { authorization: 'Bearer sk-wrong', 'content-type': 'application/json' }, payload: '{}' });
      t.equal(response.statusCode, 401);
      t.match(response.json(), { error: { code: 'invalid_authentication', type: 'invalid_request_error', message: String } });
    });
  }

  t.test('a body that is not JSON, or a wrong type, is 400 invalid_request naming the problem', async (t) => {
    const broken = await post('/v1/images/generations', '{"model": ');
    t.equal(broken.statusCode, 400);
    t.match(broken.json(), { error: { code: 'invalid_request', message: /JSON/ } });
    const wrongType = await post('/v1/images/generations', JSON.stringify({ model: 'gi-2', prompt: 'x', n: 'two' }));
    t.equal(wrongType.statusCode, 400);
    t.match(wrongType.json(), { error: { code: 'invalid_request', message: /^n: / } });
  });

  t.test('a multipart upload over security.media.max_bytes is refused with 413 before any upstream call', async (t) => {
    const boundary = 'boundary123';
    const body = multipart(boundary, [
      { name: 'model', value: 'gi-2' },
      { name: 'prompt', value: 'edit it' },
      { name: 'image[]', value: Buffer.alloc(4096, 1), filename: 'big.png', type: 'image/png' },
    ]);
    const response = await post('/v1/images/edits', body, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    t.equal(response.statusCode, 413);
    t.match(response.json(), { error: { code: 'file_too_large', message: /"big.png" is larger than the limit of 1024 bytes/ } });
  });
});
