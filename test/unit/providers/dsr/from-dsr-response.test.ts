import t from 'tap';
import { GatewayError } from '../../../../core/index.js';
import { fromDsrResponse } from '../../../../providers/dsr/from-dsr-response.js';
import { seedreamResponses } from './fixtures/read-dsr-fixtures.js';

const recorded = seedreamResponses();
const context = { model: 'dsr-4-5-251128', now: 1_800_000_000 };

const caught = (run: () => unknown): GatewayError => {
  try {
    run();
  } catch (error) {
    if (GatewayError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a gateway error');
};

t.test('a recorded text-to-image answer passes created and data through under the client model, with Ark’s tokens as the images usage', async (t) => {
  const answer = fromDsrResponse(recorded.t2i, context);
  t.strictSame(answer.body, {
    model: 'dsr-4-5-251128',
    created: recorded.t2i.created,
    data: recorded.t2i.data,
    usage: { total_tokens: 16280, input_tokens: 0, output_tokens: 16280, input_tokens_details: { text_tokens: 0, image_tokens: 0 }, output_tokens_details: { image_tokens: 16280, text_tokens: 0 } },
  });
  t.strictSame(answer.usage, {
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 16280,
    reasoningTokens: 0,
    outputModalities: { image: 16280 },
    images: 1,
    source: 'upstream',
  });
});

t.test('a recorded group of three is billed as three images with its output tokens', async (t) => {
  const answer = fromDsrResponse(recorded.group_3_images, context);
  t.equal(answer.usage.images, 3);
  t.equal(answer.usage.outputTokens, 48960);
  t.strictSame((answer.body as { data: unknown }).data, recorded.group_3_images.data);
});

t.test("a group with a failed image keeps the recorded error item in place and bills the other two", async (t) => {
  const group = structuredClone(recorded.group_3_images);
  group.data[1] = { error: recorded.partial_failed_event.error };
  const answer = fromDsrResponse(group, context);
  t.equal(answer.usage.images, 2, 'the images the client got');
  t.strictSame((answer.body as { data: unknown[] }).data[1], { error: recorded.partial_failed_event.error });
});

t.test('a group whose every image failed the output check is prompt_blocked, not retryable', async (t) => {
  const group = structuredClone(recorded.group_3_images);
  group.data = group.data.map(() => ({ error: recorded.partial_failed_event.error }));
  const error = caught(() => fromDsrResponse(group, context));
  t.match(error, { statusCode: 400, code: 'prompt_blocked', retryable: false, message: /output image may contain sensitive information.*OutputImageSensitiveContentDetected/ });
});

t.test('an answer without images is a retryable empty_response', async (t) => {
  const empty = { ...recorded.t2i, data: [], usage: { generated_images: 0, output_tokens: 0, total_tokens: 0 } };
  t.match(caught(() => fromDsrResponse(empty, context)), { statusCode: 502, code: 'empty_response', retryable: true });
  const noData = { model: 'x', created: 1 };
  t.match(caught(() => fromDsrResponse(noData, context)), { code: 'empty_response' });
  const emptyUrl = { ...recorded.t2i, data: [{ url: '', size: '1x1' }] };
  t.match(caught(() => fromDsrResponse(emptyUrl, context)), { code: 'empty_response' }, 'an empty URL is no image');
});

t.test('an error body in a 200 answer is judged by its code', async (t) => {
  t.match(caught(() => fromDsrResponse(recorded.error_401, context)), { statusCode: 502, code: 'upstream_auth_failed', retryable: true, fault: 'channel' }, 'a refused key is the channel’s');
  const unknownModel = { error: { code: 'InvalidEndpointOrModel.NotFound', message: 'The model or endpoint dsr-9 does not exist or you do not have access to it.', param: '', type: 'NotFound' } };
  t.match(caught(() => fromDsrResponse(unknownModel, context)), { statusCode: 404, code: 'model_not_found', retryable: true, fault: 'request' }, 'an unknown model is the request’s, tried elsewhere');
  const refused = { error: { code: 'InvalidParameter', message: 'The parameter `size` specified in the request is not valid.', param: 'size', type: 'BadRequest' } };
  t.match(caught(() => fromDsrResponse(refused, context)), { statusCode: 400, retryable: false }, 'a refused parameter is the client’s, never the channel’s failure');
  const sensitive = { error: { ...recorded.partial_failed_event.error, code: 'InputTextSensitiveContentDetected' } };
  t.match(caught(() => fromDsrResponse(sensitive, context)), { code: 'prompt_blocked' });
});

t.test('an answer that is not an images response is a retryable 502', async (t) => {
  t.match(caught(() => fromDsrResponse({ data: 'nope' }, context)), { statusCode: 502, code: 'upstream_invalid_response', retryable: true });
  t.match(caught(() => fromDsrResponse([1, 2], context)), { code: 'upstream_invalid_response' });
});

t.test('without usage the images are counted from data and no usage is invented for the client', async (t) => {
  const { usage: _dropped, ...bare } = recorded.t2i;
  const answer = fromDsrResponse({ ...bare, created: undefined }, context);
  t.strictSame(answer.body, { model: 'dsr-4-5-251128', created: context.now, data: recorded.t2i.data });
  t.match(answer.usage, { images: 1, outputTokens: 0, source: 'upstream' });
});
