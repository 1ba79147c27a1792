import t from 'tap';
import { emptyUsage, type Usage } from '../../../../core/index.js';
import { fromGxImageResponse } from '../../../../providers/gx/images/from-gx-image-response.js';
import { assembleResponse, fixtureJson, recordedChunks } from './fixtures/read-gx-fixtures.js';

type JsonObject = Record<string, any>;

const estimate = (images: number): Usage => ({ ...emptyUsage('estimated'), inputTokens: 5, outputTokens: 1290 * images, images });
const imageOnly = { created: 1_760_000_000, withText: false, estimate };
const imageText = { ...imageOnly, withText: true };

/** The recorded image-model answer (text, an inline PNG, then a role-only final chunk) as one non-stream body. */
const recordedAnswer = (): JsonObject => assembleResponse(recordedChunks('gemini-stream-image-output.json'));
const recordedImage = (): string => (recordedChunks('gemini-stream-image-output.json')[3] as JsonObject).candidates[0].content.parts[0].inlineData.data;
const recordedText = 'I will generate an image of the Eiffel Tower at night, with a vibrant and colorful fireworks display exploding behind it, illuminating the sky.';

t.test('the recorded image answer becomes one b64_json image with an empty url and token usage', async (t) => {
  const { body, usage } = fromGxImageResponse(recordedAnswer(), imageOnly);
  t.strictSame(body, {
    created: 1_760_000_000,
    data: [{ b64_json: recordedImage(), url: '' }],
    usage: {
      total_tokens: 1333,
      input_tokens: 15,
      output_tokens: 1318,
      input_tokens_details: { text_tokens: 15, image_tokens: 0 },
      output_tokens_details: { image_tokens: 1290, text_tokens: 28 },
    },
  });
  t.equal(usage.images, 1, 'one image is billed');
  t.equal(usage.source, 'upstream');
  t.equal(usage.inputTokens, 15);
  t.equal(usage.outputTokens, 1318);
});

t.test('image-text puts the model text, trimmed, in data[0].revised_prompt and metadata.text', async (t) => {
  const { body } = fromGxImageResponse(recordedAnswer(), imageText);
  t.equal(body.data[0]!.revised_prompt, recordedText);
  t.strictSame(body.metadata, { text: recordedText });
  t.strictSame(Object.keys(body), ['created', 'data', 'metadata', 'usage']);
});

t.test('without image-text the text the model sent anyway is left out', async (t) => {
  const { body } = fromGxImageResponse(recordedAnswer(), imageOnly);
  t.notOk('metadata' in body);
  t.notOk('revised_prompt' in body.data[0]!);
});

t.test('thought images and thought text are drafts, not output', async (t) => {
  const answer = recordedAnswer();
  answer.candidates[0].content.parts.unshift({ text: 'planning the scene', thought: true }, { inlineData: { mimeType: 'image/png', data: 'ZHJhZnQ=' }, thought: true });
  const { body, usage } = fromGxImageResponse(answer, imageText);
  t.equal(body.data.length, 1);
  t.equal(body.data[0]!.b64_json, recordedImage());
  t.equal(body.metadata?.text, recordedText);
  t.equal(usage.images, 1);
});

t.test('several output images are all returned and all billed, the text on the first', async (t) => {
  const answer = recordedAnswer();
  answer.candidates[0].content.parts.push({ inlineData: { mimeType: 'image/jpeg', data: 'c2Vjb25k' } });
  const { body, usage } = fromGxImageResponse(answer, imageText);
  t.strictSame(body.data[1], { b64_json: 'c2Vjb25k', url: '' });
  t.ok(body.data[0]!.revised_prompt);
  t.equal(usage.images, 2);
});

t.test('prompt image tokens are reported as input image tokens', async (t) => {
  const answer = recordedAnswer();
  answer.usageMetadata.promptTokenCount = 531;
  answer.usageMetadata.totalTokenCount = 531 + 1318;
  answer.usageMetadata.promptTokensDetails = [
    { modality: 'TEXT', tokenCount: 15 },
    { modality: 'IMAGE', tokenCount: 516 },
  ];
  t.match(fromGxImageResponse(answer, imageOnly).body.usage, { input_tokens: 531, input_tokens_details: { text_tokens: 15, image_tokens: 516 }, total_tokens: 1849 });
});

t.test("an answer without usageMetadata bills the caller's estimate for the images it holds", async (t) => {
  const answer = recordedAnswer();
  delete answer.usageMetadata;
  const { body, usage } = fromGxImageResponse(answer, imageOnly);
  t.match(usage, { source: 'estimated', images: 1, inputTokens: 5, outputTokens: 1290 });
  t.match(body.usage, { input_tokens: 5, output_tokens: 1290, total_tokens: 1295 });
});

t.test('a blocked prompt is a 400 prompt_blocked that is not retried', async (t) => {
  const blocked = { promptFeedback: { blockReason: 'PROHIBITED_CONTENT' }, usageMetadata: { promptTokenCount: 9, totalTokenCount: 9 } };
  t.throws(() => fromGxImageResponse(blocked, imageOnly), {
    name: 'GatewayError',
    statusCode: 400,
    code: 'prompt_blocked',
    retryable: false,
    message: 'the upstream blocked the request (PROHIBITED_CONTENT); change the prompt or the reference images',
  });
  const explained = { promptFeedback: { blockReason: 'OTHER', blockReasonMessage: 'not allowed' } };
  t.throws(() => fromGxImageResponse(explained, imageOnly), { name: 'GatewayError', code: 'prompt_blocked', message: /\(OTHER\): not allowed;/ });
});

t.test('a candidate finished for a policy reason without an image is prompt_blocked', async (t) => {
  for (const finishReason of ['SAFETY', 'PROHIBITED_CONTENT', 'IMAGE_SAFETY', 'IMAGE_PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_RECITATION']) {
    const answer = { candidates: [{ content: { role: 'model' }, finishReason, finishMessage: 'filtered', index: 0 }] };
    t.throws(() => fromGxImageResponse(answer, imageOnly), { name: 'GatewayError', statusCode: 400, code: 'prompt_blocked', retryable: false, message: new RegExp(`\\(${finishReason}\\): filtered;`) }, finishReason);
  }
});

t.test('a policy finish reason beside an image still returns the image', async (t) => {
  const answer = recordedAnswer();
  answer.candidates[0].finishReason = 'IMAGE_SAFETY';
  t.equal(fromGxImageResponse(answer, imageOnly).body.data.length, 1);
});

t.test('no image for any other reason is a retryable 502 empty_response quoting the model text', async (t) => {
  const textOnly = { candidates: [{ content: { parts: [{ text: 'I cannot draw that today.' }], role: 'model' }, finishReason: 'STOP', index: 0 }] };
  t.throws(() => fromGxImageResponse(textOnly, imageText), {
    name: 'GatewayError',
    statusCode: 502,
    code: 'empty_response',
    retryable: true,
    fault: 'request',
    message: 'the upstream answered without an image (finish reason STOP); the model said: I cannot draw that today.; retry the request',
  }, 'the model answered in words, as a prompt may ask: not the channel’s failure');
  for (const finishReason of ['NO_IMAGE', 'IMAGE_OTHER', 'OTHER', 'MAX_TOKENS']) {
    t.throws(() => fromGxImageResponse({ candidates: [{ finishReason, index: 0 }] }, imageOnly), { name: 'GatewayError', statusCode: 502, code: 'empty_response', fault: 'request' }, finishReason);
  }
  t.throws(() => fromGxImageResponse({ usageMetadata: { promptTokenCount: 4, totalTokenCount: 4 } }, imageOnly), {
    name: 'GatewayError',
    statusCode: 502,
    code: 'empty_response',
    fault: 'channel',
    message: /without any candidate/,
  }, 'no candidate at all is the channel’s failure');
});

t.test('an error body and a body of another shape keep the gx error mapping', async (t) => {
  t.throws(() => fromGxImageResponse(fixtureJson('gemini-error-429.json'), imageOnly), {
    name: 'GatewayError',
    statusCode: 429,
    retryable: true,
    headers: { 'retry-after': '35' },
  });
  t.throws(() => fromGxImageResponse({ candidates: 'nope' }, imageOnly), { name: 'GatewayError', statusCode: 502, code: 'upstream_invalid_response' });
});
