import t from 'tap';
import type { ChannelTimeouts, ImageRequest, OperationCall } from '../../../../core/index.js';
import type { PathPrefixOptions } from '../../../../core/kit/index.js';
import { createDsrImagesOperation } from '../../../../providers/dsr/dsr-images-operation.js';
import { seedreamResponses, stubHost, upstreamAnswer } from './fixtures/read-dsr-fixtures.js';

const recorded = seedreamResponses();
const timeouts: ChannelTimeouts = { connectMilliseconds: 1000, firstByteMilliseconds: 1000, idleMilliseconds: 1000, totalMilliseconds: 1000 };

/** What a promise rejected with; fails the test when it resolved. */
async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

const call = (request: Record<string, unknown>, path_prefix = '/api/v3'): OperationCall<ImageRequest, PathPrefixOptions> => ({
  request: request as ImageRequest,
  model: request.model as string,
  upstreamModel: 'doubao-seedream-4-5-251128',
  stream: false,
  channel: { name: 'dsr-main', baseUrl: 'https://ark.example', apiKey: 'ark-key', timeouts },
  options: { path_prefix },
  signal: new AbortController().signal,
  requestId: 'req-1',
});

t.test('the call goes to {base_url}{path_prefix}/images/generations with the key as a Bearer token', async (t) => {
  const { host, sent } = stubHost(upstreamAnswer(200, JSON.stringify(recorded.t2i)));
  const result = await createDsrImagesOperation(host, 'images.generate')(call({ model: 'dsr-4-5-251128', prompt: 'a cat' }, '/ark/v3'));
  t.match(sent[0], { method: 'POST', url: 'https://ark.example/ark/v3/images/generations', headers: { authorization: 'Bearer ark-key', 'content-type': 'application/json' }, timeouts });
  t.strictSame(JSON.parse(sent[0]!.body as string), { model: 'doubao-seedream-4-5-251128', prompt: 'a cat', stream: false });
  t.match(result, { kind: 'json', body: { model: 'dsr-4-5-251128', data: recorded.t2i.data }, usage: { images: 1 } });
});

t.test('a 400 with a safety-filter code is prompt_blocked; other statuses keep their meaning', async (t) => {
  const blocked = { error: { code: 'InputTextSensitiveContentDetected', message: 'The request failed because the input text may contain sensitive information.', param: '', type: 'BadRequest' } };
  const cases: Array<[number, unknown, Record<string, unknown>]> = [
    [400, blocked, { statusCode: 400, code: 'prompt_blocked', retryable: false }],
    [400, { error: { code: 'InvalidParameter', message: 'bad size', param: 'size', type: 'BadRequest' } }, { statusCode: 400, code: 'upstream_invalid_request', message: 'bad size (InvalidParameter)' }],
    [401, recorded.error_401, { statusCode: 502, code: 'upstream_auth_failed', retryable: true }],
    [429, { error: { code: 'RateLimitExceeded.EndpointRPMExceeded', message: 'slow down', param: '', type: 'TooManyRequests' } }, { statusCode: 429, retryable: true }],
    [500, { error: { code: 'InternalServiceError', message: 'oops', param: '', type: 'InternalServerError' } }, { statusCode: 502, code: 'upstream_error', retryable: true }],
    [502, 'Bad Gateway', { statusCode: 502, code: 'upstream_error', retryable: true }],
  ];
  for (const [status, body, expected] of cases) {
    const { host } = stubHost(upstreamAnswer(status, typeof body === 'string' ? body : JSON.stringify(body)));
    t.match(await rejection(createDsrImagesOperation(host, 'images.generate')(call({ model: 'dsr-4-5-251128', prompt: 'x' }))), expected, `HTTP ${status}`);
  }
});

t.test('a 200 body that is not JSON is a retryable 502', async (t) => {
  const { host } = stubHost(upstreamAnswer(200, '<html>'));
  await t.rejects(createDsrImagesOperation(host, 'images.generate')(call({ model: 'dsr-4-5-251128', prompt: 'x' })), { statusCode: 502, code: 'upstream_invalid_response', retryable: true });
});

t.test('a request the rules refuse never reaches the upstream', async (t) => {
  const { host, sent } = stubHost(upstreamAnswer(200, JSON.stringify(recorded.t2i)));
  await t.rejects(createDsrImagesOperation(host, 'images.generate')(call({ model: 'dsr-4-5-251128', prompt: 'x', guidance_scale: 3 })), {
    statusCode: 400,
    code: 'invalid_request',
    param: 'guidance_scale',
  });
  t.equal(sent.length, 0);
});

t.test('a multipart edit refuses a mask and takes image files in order after image fields', async (t) => {
  const { host, sent } = stubHost(upstreamAnswer(200, JSON.stringify(recorded.t2i)));
  const upload = (field: string, bytes: number[]) => ({ field, filename: `${field}.png`, mimeType: 'image/png', data: Buffer.from(bytes) });
  t.match(await rejection(createDsrImagesOperation(host, 'images.edit')(call({ model: 'dsr-4-5-251128', prompt: 'x', uploads: [upload('mask', [1])] }))), {
    statusCode: 400,
    param: 'mask',
  });
  await createDsrImagesOperation(host, 'images.edit')(
    call({ model: 'dsr-4-5-251128', prompt: 'x', image: 'data:image/jpeg;base64,AQ==', watermark: 'TRUE', uploads: [upload('image[]', [2]), upload('image', [3])] }),
  );
  const sentBody = JSON.parse(sent[0]!.body as string);
  t.strictSame(sentBody.image, ['data:image/jpeg;base64,AQ==', 'data:image/png;base64,Ag==', 'data:image/png;base64,Aw==']);
  t.equal(sentBody.watermark, true);
});
