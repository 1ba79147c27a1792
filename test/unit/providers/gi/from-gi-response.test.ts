import { readFileSync } from 'node:fs';
import t from 'tap';
import { GatewayError } from '../../../../core/index.js';
import { fromGiResponse } from '../../../../providers/gi/from-gi-response.js';

const recorded = readFileSync(new URL('../../../fixtures/gi/openai-image-edit-gpt-image.json', import.meta.url), 'utf8');

const thrown = (run: () => unknown): GatewayError => {
  try {
    run();
  } catch (error) {
    if (GatewayError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a gateway error');
};

t.test('the recorded edit answer goes to the client byte for byte and bills its one image', async (t) => {
  const answer = fromGiResponse(recorded);
  t.equal(answer.body, recorded);
  // The recording carries no usage: tokens are zero, the image count is the upstream's own.
  t.strictSame(answer.usage, { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, reasoningTokens: 0, images: 1, source: 'upstream' });
});

t.test('reported usage gives the token counts and their text and image split', async (t) => {
  const body = JSON.parse(recorded) as Record<string, unknown>;
  body.data = [{ b64_json: 'aaaa' }, { b64_json: 'bbbb' }];
  // upstreams.md §2.7's usage example.
  body.usage = {
    input_tokens: 50,
    input_tokens_details: { text_tokens: 10, image_tokens: 40 },
    output_tokens: 50,
    output_tokens_details: { image_tokens: 50, text_tokens: 0 },
    total_tokens: 100,
  };
  t.strictSame(fromGiResponse(JSON.stringify(body)).usage, {
    inputTokens: 50,
    cachedInputTokens: 0,
    outputTokens: 50,
    reasoningTokens: 0,
    images: 2,
    source: 'upstream',
    inputModalities: { text: 10, image: 40 },
    outputModalities: { text: 0, image: 50 },
  });
});

t.test('only entries that hold an image are billed', async (t) => {
  const body = { created: 1, data: [{ b64_json: 'aaaa' }, { b64_json: '' }, null, { revised_prompt: 'x' }, { url: 'https://example.com/a.png' }] };
  t.equal(fromGiResponse(JSON.stringify(body)).usage.images, 2);
});

t.test('an answer without any image is a retryable 502 empty_response', async (t) => {
  for (const body of [{ created: 1, data: [] }, { created: 1 }, { created: 1, data: [{ b64_json: null }] }]) {
    t.match(thrown(() => fromGiResponse(JSON.stringify(body))), { statusCode: 502, code: 'empty_response', retryable: true }, JSON.stringify(body));
  }
});

t.test('an error body with status 200 is judged like an error status; a safety refusal is prompt_blocked', async (t) => {
  const blocked = { error: { message: 'Your request was rejected by the safety system.', type: 'image_generation_user_error', param: null, code: 'moderation_blocked' } };
  t.match(thrown(() => fromGiResponse(JSON.stringify(blocked))), { statusCode: 400, code: 'prompt_blocked', retryable: false });
  t.match(thrown(() => fromGiResponse(JSON.stringify({ error: { message: 'boom', type: 'server_error' } }))), { statusCode: 502, retryable: true });
  t.match(thrown(() => fromGiResponse(JSON.stringify({ error: 'plain words' }))), { statusCode: 502, message: /plain words/ });
});

t.test('a body that is not JSON, or not an images answer, is a retryable invalid answer', async (t) => {
  t.match(thrown(() => fromGiResponse('<html>bad gateway</html>')), { statusCode: 502, code: 'upstream_invalid_response', retryable: true });
  t.match(thrown(() => fromGiResponse(JSON.stringify({ data: 'nope' }))), { code: 'upstream_invalid_response' });
});
